import { z } from "zod";

/**
 * The statements' wire shapes: every amount is a decimal string of USD (exact micro-dollars, formatted once by
 * the API), every time an ISO string. The app parses the answers, and builds its CSV, with these same schemas.
 */
const usd = z.string();
const time = z.string();

/** One installment of the schedule, as the contract computes it. */
export const wireStatementInstallmentSchema = z.object({
  index: z.number(),
  dueDate: time,
  payment: usd,
  interest: usd,
  principal: usd,
  balanceAfter: usd,
});

/** One repayment as the chain logged it, split into the late fees, interest and principal it paid. */
export const wireStatementPaymentSchema = z.object({
  txHash: z.string(),
  blockNumber: z.number(),
  time: time.nullable(),
  /** Everything the payment took: lateFee + interest + principal. */
  amount: usd,
  /** What of it paid late fees, which a payment pays first. */
  lateFee: usd,
  interest: usd,
  principal: usd,
  /** Principal still owed after this payment. */
  balanceAfter: usd,
});

/** A charge beyond the schedule: a late fee paid ("late_fee"), as its LateFeesPaid log says. */
export const wireStatementFeeSchema = z.object({ kind: z.string(), time: time.nullable(), amount: usd, txHash: z.string().nullable() });

/** GET /loans/{id}/statement. */
export const wireLoanStatementSchema = z.object({
  loanId: z.string(),
  tokenId: z.string(),
  borrower: z.string(),
  asOf: time,
  status: z.enum(["active", "repaid", "defaulted"]),
  terms: z.object({ principal: usd, interestRate: z.number(), termMonths: z.number(), start: time }),
  schedule: z.array(wireStatementInstallmentSchema),
  payments: z.array(wireStatementPaymentSchema),
  fees: z.array(wireStatementFeeSchema),
  totals: z.object({ paid: usd, interestPaid: usd, principalPaid: usd, feesPaid: usd, outstanding: usd, payoff: usd }),
});
export type WireLoanStatement = z.infer<typeof wireLoanStatementSchema>;

const onChain = { tokenId: z.string(), txHash: z.string(), blockNumber: z.number(), time: time.nullable() };

/** A note bought or sold by the wallet: price, the platform fee taken from it, and what the seller received. */
export const wireStatementTradeSchema = z.object({
  ...onChain,
  side: z.enum(["buy", "sell"]),
  price: usd,
  fee: usd,
  /** What the wallet paid (a buy: the price) or received (a sale: the price less the fee). */
  net: usd,
  counterparty: z.string(),
});

/** A repayment credited to the wallet: `amount` includes `lateFee`, the late fees it carried. */
export const wireStatementReceiptSchema = z.object({ ...onChain, amount: usd, lateFee: usd, viaVault: z.boolean() });
export const wireStatementWithdrawalSchema = z.object({ txHash: z.string(), blockNumber: z.number(), time: time.nullable(), amount: usd });

/** One note's result: its dated cash flows up to the period's end and their annualised return. */
export const wireStatementNoteSchema = z.object({
  tokenId: z.string(),
  /** "held" at the period's end, or "sold" / "repaid" when the position closed by then. */
  position: z.enum(["held", "sold", "repaid"]),
  closedInPeriod: z.boolean(),
  pricePaid: usd.nullable(),
  received: usd,
  saleProceeds: usd,
  /** Held at the period's end: principal still owed, and the payoff then (principal and accrued interest). */
  outstandingPrincipal: usd,
  valueAtEnd: usd,
  /** Closed: received + sale proceeds − price paid. */
  realisedReturn: usd.nullable(),
  /** Held: received + the remaining scheduled installments − price paid. */
  expectedReturn: usd.nullable(),
  /** Percent a year, two decimals; null without a price paid or without a rate to find. */
  irr: z.number().nullable(),
});

/** GET /portfolio/statement. */
export const wirePortfolioStatementSchema = z.object({
  walletAddress: z.string().nullable(),
  from: z.string(),
  to: z.string(),
  asOf: time,
  trades: z.array(wireStatementTradeSchema),
  receipts: z.array(wireStatementReceiptSchema),
  withdrawals: z.array(wireStatementWithdrawalSchema),
  notes: z.array(wireStatementNoteSchema),
  totals: z.object({
    bought: usd,
    sold: usd,
    fees: usd,
    saleProceeds: usd,
    received: usd,
    /** Of `received`, what were late fees. */
    lateFeesReceived: usd,
    withdrawn: usd,
    realisedReturn: usd,
    expectedReturn: usd,
    notesHeld: z.number(),
    outstandingPrincipal: usd,
    valueAtEnd: usd,
    xirr: z.number().nullable(),
  }),
});
export type WirePortfolioStatement = z.infer<typeof wirePortfolioStatementSchema>;
