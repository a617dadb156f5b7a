import { DAY_SECONDS, PERIOD_SECONDS, monthlyPayment, scheduleRows, totalDue, type LoanTerms } from "./schedule";

/** Why a payoff is the amount it is, in the schedule's own terms. */
export interface PayoffParts {
  /** Scheduled principal balance at the start of the current period. */
  balance: bigint;
  /** Interest of the current period accrued up to today: interest × day / 30. */
  accrued: bigint;
  /** Day of the current 30-day period, 1..30; 0 once the loan has matured. */
  day: number;
  /** Repaid beyond the installments already due (positive), or owed from them (negative). */
  ahead: bigint;
}

/**
 * Splits `payoffAmount(terms, repaid, timestamp)` into its parts, so that balance + accrued − ahead is that amount
 * whenever it is positive. Installment payments made ahead of their due date include that period's whole interest,
 * while a payoff charges only the days accrued: which is why a payoff can be less than the principal still owed.
 */
export function payoffParts(terms: LoanTerms, repaid: bigint, timestamp: bigint): PayoffParts {
  const elapsed = timestamp > terms.start ? timestamp - terms.start : 0n;
  const completed = elapsed / PERIOD_SECONDS;
  if (completed >= BigInt(terms.termMonths)) return { balance: 0n, accrued: 0n, day: 0, ahead: repaid - totalDue(terms) };
  const day = (elapsed % PERIOD_SECONDS) / DAY_SECONDS + 1n;
  const rows = scheduleRows(terms);
  const current = rows[Number(completed)];
  // A row's balance is the scheduled balance after it, so the period's opening balance is the previous row's.
  const balance = completed === 0n ? terms.principal : rows[Number(completed) - 1].balance;
  const scheduledSoFar = completed * monthlyPayment(terms.principal, terms.rateBps, terms.termMonths);
  return { balance, accrued: (current.interest * day) / 30n, day: Number(day), ahead: repaid - scheduledSoFar };
}
