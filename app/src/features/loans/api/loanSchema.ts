import { z } from "zod";
import { LOAN_STATUSES, MINT_STATUSES } from "#domain/statuses";

const timelineEntry = z.object({
  action: z.string(),
  at: z.string(),
  by: z.object({ _id: z.string(), name: z.string().nullish(), email: z.string().nullish() }).nullish(),
  notes: z.string().nullish(),
  txHash: z.string().nullish(),
});

/** A loan as GET /loans/my-loans and GET /loans/{id} answer it (api/src/loans/wire.ts); amounts are decimal USD strings. */
export const loanSchema = z
  .object({
    _id: z.string(),
    loanNumber: z.number(),
    amount: z.string(),
    principal: z.string().nullish(),
    purpose: z.string(),
    interestRate: z.number(),
    termMonths: z.number(),
    status: z.enum(LOAN_STATUSES),
    mintStatus: z.enum(MINT_STATUSES),
    listingStatus: z.string().nullish(),
    requestDate: z.string(),
    approvalDate: z.string().nullish(),
    rejectionDate: z.string().nullish(),
    rejectionReason: z.string().nullish(),
    adminNotes: z.string().nullish(),
    collateral: z.object({ type: z.string(), value: z.string(), description: z.string() }).nullish(),
    borrowerWallet: z.string().nullish(),
    nftTokenId: z.string().nullish(),
    nftTransactionHash: z.string().nullish(),
    mintTxHash: z.string().nullish(),
    nftValue: z.string().nullish(),
    monthlyPayment: z.string(),
    totalInterest: z.string(),
    totalRepaid: z.string(),
    remainingBalance: z.string(),
    noteStart: z.string().nullish(),
    maturityDate: z.string().nullish(),
    performance: z.string().nullish(),
    timeline: z.array(timelineEntry).optional(),
  })
  .loose();

export type Loan = z.infer<typeof loanSchema>;
export type TimelineEntry = z.infer<typeof timelineEntry>;

export const loanKeys = {
  all: ["loans"] as const,
  mine: (params: object) => ["loans", "mine", params] as const,
  one: (id: string) => ["loans", "one", id] as const,
  activity: (id: string) => ["loans", "activity", id] as const,
};
