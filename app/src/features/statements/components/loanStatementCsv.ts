import type { WireLoanStatement } from "#domain/wire/statement";
import { toCsv } from "./csv";

/** The loan statement as CSV, from the same wire data the page shows: exact amounts, ISO times. */
export function loanStatementCsv(s: WireLoanStatement): string {
  const t = s.totals;
  return toCsv([
    [
      ["Loan statement", s.loanId],
      ["Note", s.tokenId],
      ["Borrower", s.borrower],
      ["As of", s.asOf],
      ["Principal", s.terms.principal],
      ["Rate (%)", s.terms.interestRate],
      ["Term (months)", s.terms.termMonths],
      ["Start", s.terms.start],
    ],
    [["Installment", "Due date", "Payment", "Interest", "Principal", "Balance after"], ...s.schedule.map((r) => [r.index, r.dueDate, r.payment, r.interest, r.principal, r.balanceAfter])],
    [
      ["Payment time", "Transaction", "Amount", "Late fee", "Interest", "Principal", "Balance after"],
      ...s.payments.map((p) => [p.time, p.txHash, p.amount, p.lateFee, p.interest, p.principal, p.balanceAfter]),
    ],
    [["Fee", "Time", "Amount", "Transaction"], ...s.fees.map((f) => [f.kind, f.time, f.amount, f.txHash])],
    [
      ["Total", "Amount"],
      ["Paid", t.paid],
      ["Interest paid", t.interestPaid],
      ["Principal paid", t.principalPaid],
      ["Fees paid", t.feesPaid],
      ["Outstanding", t.outstanding],
      ["Payoff now", t.payoff],
    ],
  ]);
}
