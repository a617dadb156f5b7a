import { z } from "zod";
import { wireServicingSchema } from "./servicing";
import { wirePledgedNftSchema } from "./collateral";
import { KYC_STATUSES, LISTING_STATES, LOAN_STATUSES, MINT_STATUSES } from "../statuses";

/**
 * A loan as every route answers it: the loan record plus principal, loanNumber, mintStatus, listingStatus and the
 * timeline. The API's toWireLoan is typed by it, the app parses with it. Amounts
 * are decimal USD strings, the rate is percent.
 */
const text = z.string().nullable();

export const wireTimelineEntrySchema = z.object({
  action: z.string(),
  at: z.string(),
  by: z.object({ _id: z.string(), name: text, email: text }).nullable(),
  notes: text,
  txHash: text,
});
export type WireTimelineEntry = z.infer<typeof wireTimelineEntrySchema>;

export const PERFORMANCES = ["excellent", "good", "average", "poor"] as const;
export type Performance = (typeof PERFORMANCES)[number];

export const wireLoanSchema = z.object({
  _id: z.string(),
  loanNumber: z.number(),
  userId: z.object({ _id: z.string(), email: z.string() }),
  user: z.object({
    _id: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    walletAddress: text,
    kyc: z.object({ status: z.enum(KYC_STATUSES) }),
    kycStatus: z.enum(KYC_STATUSES),
  }),
  amount: z.string(),
  principal: text,
  purpose: z.string(),
  interestRate: z.number(),
  termMonths: z.number(),
  status: z.enum(LOAN_STATUSES),
  mintStatus: z.enum(MINT_STATUSES),
  listingStatus: z.enum(LISTING_STATES),
  requestDate: z.string(),
  approvalDate: text,
  rejectionDate: text,
  createdAt: z.string(),
  updatedAt: z.string(),
  rejectionReason: text,
  adminNotes: text,
  /** `nft`: the pledged ERC-721 when the borrower pledged one, else null. */
  collateral: z.object({ type: z.string(), value: z.string(), description: z.string(), nft: wirePledgedNftSchema.nullable() }).nullable(),
  borrowerWallet: text,
  nftTokenId: text,
  nftTransactionHash: text,
  mintTxHash: text,
  mintError: text,
  listingTxHash: text,
  listingError: text,
  nftValue: text,
  monthlyPayment: z.string(),
  totalInterest: z.string(),
  totalRepaid: z.string(),
  remainingBalance: z.string(),
  noteStart: text,
  maturityDate: text,
  performance: z.enum(PERFORMANCES).nullable(),
  /** Null until the loan has a note on the chain. */
  servicing: wireServicingSchema.nullable(),
  /** The loan a refinance of this one opened: this one is then completed, paid off by the new lender. */
  refinancedTo: text,
  /** The loan this one refinanced (it was opened by that refinance, not by a request). */
  refinancedFrom: text,
  timeline: z.array(wireTimelineEntrySchema).optional(),
});
export type WireLoan = z.infer<typeof wireLoanSchema>;

/** A page of loans: GET /loans/my-loans and the admin lists. */
export const wireLoanPageSchema = z.object({
  loans: z.array(wireLoanSchema),
  pagination: z.object({ page: z.number(), limit: z.number(), totalPages: z.number(), totalLoans: z.number() }),
});
export type WireLoanPage = z.infer<typeof wireLoanPageSchema>;
