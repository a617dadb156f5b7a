import { loanListQuerySchema } from "#domain/schemas/loans";
import { DEFAULT_RATE_LIMITS } from "../../http/rateLimit";
import type { OperationGroup } from "../types";

const LOAN = "`data` is the loan as the app reads it, with its schedule and its note once minted.";

export const loansOperations: OperationGroup = {
  tag: "Loans",
  description: "A borrower's loan requests and repayments, and the spec's admin paths under /loans.",
  operations: {
    "POST /api/loans/request": {
      summary: "Request a loan",
      description: `Needs approved KYC and a verified wallet (403 otherwise). Amounts are USD (a number or a decimal string), the rate is percent per year. With collateral \`{ type: "nft", value, description, nft: { collection, tokenId } }\` the borrower pledges an NFT their verified wallet holds, of an accepted collection, not pledged by another pending or approved request (400 otherwise, with the reason). A borrower may have ${DEFAULT_RATE_LIMITS.pendingLoanRequests} requests awaiting review (400 past that) and send ${DEFAULT_RATE_LIMITS.loanRequest.max} per hour (429 past that; by default). ${LOAN}`,
      access: "user",
      status: 201,
      example: { amount: "5000", purpose: "business", interestRate: 8.5, termMonths: 12 },
    },
    "GET /api/loans/my-loans": { summary: "My loans, a page at a time", access: "user", query: loanListQuerySchema },
    "GET /api/loans/{id}": { summary: "One of my loans", description: LOAN, access: "user" },
    "PUT /api/loans/{id}/repayment": {
      summary: "Prepare or complete a repayment",
      description: "First call (amount, optional installment): answers the ERC-2612 permit to sign. Second call with `signature` and `deadline`: answers the transaction the wallet sends.",
      access: "user",
      example: { amount: "440.50", installmentNumber: 1 },
    },
    "GET /api/loans/admin/stats": { summary: "Loan counts and totals (admin)", access: "admin" },
    "GET /api/loans/admin/requests": { summary: "All loan requests, filtered (admin)", access: "admin", query: loanListQuerySchema },
    "GET /api/loans/admin/requests/{id}": { summary: "One loan request (admin)", description: LOAN, access: "admin" },
    "PUT /api/loans/admin/approve/{id}": {
      summary: "Approve a loan: fund, mint its note and list it (admin)",
      access: "admin",
      example: { fundingAmount: "5000", notes: "Documents checked" },
    },
    "PUT /api/loans/admin/reject/{id}": { summary: "Reject a loan (admin)", access: "admin", example: { reason: "Income not verified" } },
    "POST /api/loans": {
      summary: "Create a demo loan request for the demo borrower (admin)",
      description: "The admin dashboard's demo button: a real pending request.",
      access: "admin",
      status: 201,
      body: { none: true },
    },
  },
};
