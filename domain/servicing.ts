import { DAY_SECONDS, nextDueDate, amountDueNow, outstandingBalance, payoffAmount, type LoanTerms } from "./schedule";
import { PERFORMANCES, type Performance } from "./wire/loan";
import type { ServicingStatus } from "./statuses";

/**
 * Servicing: where a loan stands against its schedule, read from the schedule alone (nothing is written per day),
 * unit for unit as contracts/libraries/LoanMath.sol's `pastDue` and `payoffSplit` compute it.
 */

/** "1 day past due", "12 days past due": how every server text names a loan's lateness. */
export const daysPastDueText = (days: number) => `${days} ${days === 1 ? "day" : "days"} past due`;

/** From this many days past due a late loan is delinquent. */
export const DELINQUENT_FROM_DAYS = 30;

export interface PastDue {
  /** Due date of the oldest installment not fully paid (unix seconds). */
  dueDate: bigint;
  /** Days that installment is past due: 1 from the due date's own second, 0 while the loan is current. */
  daysPastDue: number;
  /** Installments fallen due and not yet paid. */
  amountPastDue: bigint;
}

/** Where a loan not yet settled stands at `now`: LoanNote.pastDueOf. */
export function pastDue(terms: LoanTerms, repaid: bigint, now: bigint): PastDue {
  const dueDate = nextDueDate(terms, repaid);
  const daysPastDue = now >= dueDate ? Number((now - dueDate) / DAY_SECONDS) + 1 : 0;
  return { dueDate, daysPastDue, amountPastDue: amountDueNow(terms, repaid, now) };
}

/** The note's life on-chain, as the servicing status reads it. */
export type NoteLife = "active" | "defaulted" | "repaid";

export function servicingStatus(life: NoteLife, daysPastDue: number): ServicingStatus {
  if (life !== "active") return life;
  if (daysPastDue === 0) return "current";
  return daysPastDue < DELINQUENT_FROM_DAYS ? "late" : "delinquent";
}

/**
 * The performance grade a person reads on cards and lists: paid off or current with payments made is excellent,
 * current before the first payment good, late average, delinquent or defaulted poor.
 */
export function performanceGrade(status: ServicingStatus, repaid: bigint): Performance {
  const grade: Record<ServicingStatus, Performance> = {
    repaid: "excellent",
    current: repaid > 0n ? "excellent" : "good",
    late: "average",
    delinquent: "poor",
    defaulted: "poor",
  };
  return grade[status];
}

/** Spec's sort weight of a grade (excellent 4 … poor 1). */
export const performanceWeight = (grade: Performance) => PERFORMANCES.length - PERFORMANCES.indexOf(grade);

/**
 * What settles an active loan at `now`, split as a par order prices it: the principal not yet repaid (never more
 * than the payoff: an installment paid ahead carries interest that a payoff does not charge) and the interest
 * accrued and unpaid (every unpaid installment's and the current period's). principal + interest = payoff.
 */
export interface PayoffSplit {
  principal: bigint;
  interest: bigint;
}

export function payoffSplit(terms: LoanTerms, repaid: bigint, now: bigint): PayoffSplit {
  const payoff = payoffAmount(terms, repaid, now);
  const outstanding = outstandingBalance(terms, repaid);
  const principal = outstanding < payoff ? outstanding : payoff;
  return { principal, interest: payoff - principal };
}
