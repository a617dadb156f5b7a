import { scheduleRows, totalDue, type LoanTerms, type ScheduleRow } from "./schedule";

export type InstallmentState = "paid" | "due" | "late" | "settled";

export interface PaidRow extends ScheduleRow {
  /** What the borrower's payments really covered of this installment, in order (the payoff not included). */
  paid: bigint;
  /** Still owed on it; 0 once paid or settled. */
  owed: bigint;
  /** "settled": not paid as an installment, closed by the early payoff. */
  state: InstallmentState;
}

export interface PaidSchedule {
  rows: PaidRow[];
  /** The early payoff that closed the loan (less than the installments it replaced), or null. */
  payoff: bigint | null;
  /** rows' paid + payoff: always the total really repaid. */
  totalPaid: bigint;
}

/**
 * The schedule as it was really paid. Payments cover installments in order. A loan
 * repaid early (completed with less than the schedule's total) ended with a payoff of the outstanding principal and
 * the interest accrued so far, not with the remaining installments: those rows are "settled", and the payoff is
 * its own line, so the paid column and the payoff add up to what was repaid, never to the full schedule.
 * `finalPayment` is the last repayment's amount (from the chain); unknown, the whole excess stays on the rows.
 */
export function paidSchedule(terms: LoanTerms, repaid: bigint, options: { completed: boolean; finalPayment: bigint | null; now: bigint }): PaidSchedule {
  const early = options.completed && repaid < totalDue(terms);
  const payoff = early && options.finalPayment !== null && options.finalPayment <= repaid ? options.finalPayment : null;
  let left = repaid - (payoff ?? 0n);
  const rows = scheduleRows(terms).map((row): PaidRow => {
    const paid = left >= row.payment ? row.payment : left;
    left -= paid;
    const full = paid === row.payment;
    const state: InstallmentState = full ? "paid" : options.completed ? "settled" : row.dueDate < options.now ? "late" : "due";
    return { ...row, paid, owed: full || options.completed ? 0n : row.payment - paid, state };
  });
  return { rows, payoff, totalPaid: repaid };
}
