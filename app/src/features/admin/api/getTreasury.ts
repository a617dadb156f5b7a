import { useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { wireServicingSchema } from "#domain/wire/servicing";
import { http, type Envelope } from "../../../lib/http";
import { adminKeys } from "./keys";

const noteSchema = z.object({
  tokenId: z.string(),
  loanId: z.string(),
  status: z.string(),
  principal: z.string(),
  totalRepaid: z.string(),
  listed: z.boolean(),
  listingPrice: z.string().nullable(),
  listingStatus: z.string(),
  servicing: wireServicingSchema,
});
export type TreasuryNote = z.infer<typeof noteSchema>;

const treasurySchema = z.object({
  address: z.string(),
  balance: z.string(),
  allowance: z.string(),
  credits: z.string(),
  nextApproval: z.string(),
  canFundNextApproval: z.boolean(),
  notes: z.array(noteSchema),
  listings: z.array(noteSchema),
  /** Held notes past due: their par listing waits for the borrower to catch up. */
  lateNotes: z.array(noteSchema),
});
export type Treasury = z.infer<typeof treasurySchema>;

/** GET /admin/treasury: balance, allowance, credits waiting, the notes it holds and its listings, read from the chain. */
export async function getTreasury(): Promise<Treasury> {
  const { data } = await http.get<Envelope<unknown>>("/admin/treasury");
  return treasurySchema.parse(data.data);
}

export function useTreasury() {
  return useQuery({ queryKey: adminKeys.treasury, queryFn: getTreasury, staleTime: 0, refetchInterval: 30_000 });
}
