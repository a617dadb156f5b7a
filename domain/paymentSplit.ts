import { outstandingBalance, type LoanTerms } from "./schedule";

export interface PaymentSplit {
  interest: bigint;
  principal: bigint;
  /** Scheduled principal still owed after the payment. */
  balanceAfter: bigint;
}

/**
 * What one repayment paid of interest and of principal: the principal it retired (the fall of the outstanding
 * balance, each payment applied to its installment's interest first) and the rest as interest. The final payment
 * retires all that is left, whatever the schedule says, because the note is then repaid.
 */
export function paymentSplit(terms: LoanTerms, amount: bigint, totalRepaidAfter: bigint, final: boolean): PaymentSplit {
  const before = outstandingBalance(terms, totalRepaidAfter - amount);
  const balanceAfter = final ? 0n : outstandingBalance(terms, totalRepaidAfter);
  const retired = before - balanceAfter;
  const principal = retired < amount ? retired : amount;
  return { interest: amount - principal, principal, balanceAfter };
}
