import { z } from "zod";

const text = z.string().nullish();

const timelineEntry = z
  .object({ action: z.string(), at: z.string(), notes: text, txHash: text, by: z.object({ name: text, email: text }).loose().nullish() })
  .loose();

/** A loan as the admin routes answer it (spec 02 §3 Loan, plus principal, loanNumber, mint and listing states). */
export const adminLoanSchema = z
  .object({
    _id: z.string(),
    loanNumber: z.number(),
    user: z
      .object({ _id: z.string().optional(), firstName: z.string().default(""), lastName: z.string().default(""), email: z.string().default(""), walletAddress: text, kycStatus: text })
      .loose(),
    amount: z.string(),
    principal: text,
    purpose: z.string(),
    interestRate: z.number(),
    termMonths: z.number(),
    status: z.enum(["pending", "approved", "active", "completed", "rejected", "defaulted"]),
    mintStatus: z.enum(["none", "minting", "minted", "failed"]),
    listingStatus: z.string().default("none"),
    requestDate: z.string(),
    approvalDate: text,
    rejectionDate: text,
    rejectionReason: text,
    adminNotes: text,
    collateral: z.object({ type: z.string(), value: z.string(), description: z.string() }).nullish(),
    borrowerWallet: text,
    nftTokenId: text,
    nftTransactionHash: text,
    mintTxHash: text,
    mintError: text,
    listingTxHash: text,
    listingError: text,
    monthlyPayment: text,
    totalInterest: text,
    totalRepaid: z.string().default("0"),
    remainingBalance: text,
    performance: text,
    timeline: z.array(timelineEntry).optional(),
  })
  .loose();
export type AdminLoan = z.infer<typeof adminLoanSchema>;
export type LoanStatus = AdminLoan["status"];

export const loanPageSchema = z.object({
  loans: z.array(adminLoanSchema),
  pagination: z.object({ page: z.number(), limit: z.number(), totalPages: z.number(), totalLoans: z.number() }).loose(),
});
export type LoanPage = z.infer<typeof loanPageSchema>;

export interface LoanListParams {
  page?: number;
  limit?: number;
  status?: string;
  search?: string;
  sortBy?: string;
  sortOrder?: "asc" | "desc";
  minAmount?: string;
}

/** Only the filters that are set reach the query string. */
export function listParams(params: LoanListParams) {
  return Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined && v !== "" && v !== "all"));
}
