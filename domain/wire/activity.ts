import { z } from "zod";
import { ACTIVITY_KINDS } from "../activity";

const text = z.string().nullable();

/** One on-chain event of a user or a loan, read from the mirror; api/src/activity/service.ts is typed by it. */
export const wireActivityEntrySchema = z.object({
  kind: z.enum(ACTIVITY_KINDS),
  tokenId: text,
  loanId: text,
  /** A decimal string of USD, or null for moves without money (transfers, vault moves, mint, burn). */
  amount: text,
  from: text,
  to: text,
  txHash: z.string(),
  blockNumber: z.number(),
  logIndex: z.number(),
  time: text,
});
export type WireActivityEntry = z.infer<typeof wireActivityEntrySchema>;

/** GET /activity: the user's activity, newest first, and how many there are in all. */
export const wireUserActivitySchema = z.object({ walletAddress: text, total: z.number(), transactions: z.array(wireActivityEntrySchema) });

/** GET /activity/loans/{id}: a loan note's life (holder, repayments, transfers). */
export const wireLoanActivitySchema = z.object({
  tokenId: text,
  holder: text,
  owner: text,
  burned: z.boolean(),
  totalRepaid: z.string(),
  entries: z.array(wireActivityEntrySchema),
});
