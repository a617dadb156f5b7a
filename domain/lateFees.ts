import { DAY_SECONDS, PERIOD_SECONDS, amountDueNow, dueDate, installmentsCovered, lastInstallment, maturityDefaultAt, monthlyPayment, payoffAmount, type LoanTerms } from "./schedule";
import { pastDue, payoffSplit, type PastDue, type PayoffSplit } from "./servicing";

/**
 * Late fees and default by days past due, unit for unit as LoanNote and contracts/libraries/LoanMath.sol compute them
 * (nothing is written per day: everything follows from the schedule, `repaid` and `feesPaidThrough`).
 *
 * - Installment k (due at start + k * 30 days) owes a late fee once it is still not fully paid at
 *   due_k + lateFeeGracePeriod, from that second on: floor(installment_k * lateFeeBps / 10,000), installment_k being
 *   the regular payment for k < n and the last installment (which absorbs rounding) for k = n. Charged once.
 * - With c = regular installments covered by `repaid` and L = installments whose fee time has come, the fees owed are
 *   those of installments max(c, feesPaidThrough) + 1 .. L.
 * - A repayment pays whole owed fees first, in installment order; only once all are paid does the rest go to the
 *   installments (capped at the payoff). A payment below the first owed fee is refused (PaymentBelowLateFee).
 * - A loan may be defaulted from min(maturity + gracePeriod, oldest unpaid due date + defaultAfterDays days).
 */

export const BPS_DENOMINATOR = 10_000n;
/** The bounds LoanNote's constructor enforces on its parameters. */
export const MAX_LATE_FEE_GRACE_PERIOD = 60n * DAY_SECONDS;
export const MAX_LATE_FEE_BPS = 1_000;
export const MIN_DEFAULT_AFTER_DAYS = 30;
export const MAX_DEFAULT_AFTER_DAYS = 365;

/** LoanNote's servicing parameters, as read from the chain (`gracePeriod`, `lateFeeGracePeriod`, ...). */
export interface ServicingParams {
  /** Seconds after maturity from which an unpaid loan may be defaulted. */
  gracePeriod: bigint;
  /** Seconds after a due date from which an unpaid installment owes its late fee. */
  lateFeeGracePeriod: bigint;
  /** Late fee in basis points of the overdue installment. */
  lateFeeBps: number;
  /** Days after the oldest unpaid installment's due date from which the loan may be defaulted. */
  defaultAfterDays: number;
}

/** A loan as LoanNote stores it, for its servicing: terms, installments repaid and the fees' high-water mark. */
export interface ServicedLoan {
  terms: LoanTerms;
  /** Installments repaid (fees are never counted here). */
  repaid: bigint;
  /** Every installment up to this one has had its late fee paid or never owed one. */
  feesPaidThrough: number;
}

export interface LateFees {
  /** The fees owed now, in the stablecoin's smallest unit. */
  amount: bigint;
  /** How many installments owe one. */
  count: number;
  /** The first installment owing one less one (max(covered, feesPaidThrough)): fees run from here + 1 to `through`. */
  from: number;
  /** The last installment owing one (equal to `from` when none is owed). */
  through: number;
  /** The first owed fee, the least a payment must cover (zero when none is owed). */
  first: bigint;
}

/** How many installments' fee time has come at `now`: min(n, floor((now - start - lateFeeGracePeriod) / 30 days)). */
export function lateFeeInstallments(terms: LoanTerms, now: bigint, lateFeeGracePeriod: bigint): number {
  const elapsed = now - terms.start - lateFeeGracePeriod;
  if (elapsed < 0n) return 0;
  const count = elapsed / PERIOD_SECONDS;
  const n = BigInt(terms.termMonths);
  return Number(count < n ? count : n);
}

/** The moment installment `k`'s late fee becomes owed if it is not paid by then. */
export function lateFeeTime(terms: LoanTerms, k: number, lateFeeGracePeriod: bigint): bigint {
  return dueDate(terms, k) + lateFeeGracePeriod;
}

/** Installment `k`'s late fee (1-based): floor(installment_k * lateFeeBps / 10,000). */
export function lateFeeOf(terms: LoanTerms, k: number, lateFeeBps: number): bigint {
  const n = Number(terms.termMonths);
  const installment = k < n ? monthlyPayment(terms.principal, terms.rateBps, terms.termMonths) : lastInstallment(terms);
  return (installment * BigInt(lateFeeBps)) / BPS_DENOMINATOR;
}

/**
 * The whole fees of installments from + 1 .. to that `budget` covers, taken in installment order: their sum and the
 * last installment whose fee is paid (`from` when none). Without a budget, all of them: LoanMath.lateFeesWithin.
 */
export function lateFeesWithin(terms: LoanTerms, from: number, to: number, lateFeeBps: number, budget?: bigint): { amount: bigint; through: number } {
  const n = Number(terms.termMonths);
  const regular = lateFeeOf(terms, 1, lateFeeBps);
  let amount = 0n;
  let through = from;
  while (through < to) {
    const fee = through + 1 < n ? regular : lateFeeOf(terms, n, lateFeeBps);
    if (budget !== undefined && amount + fee > budget) break;
    amount += fee;
    through += 1;
  }
  return { amount, through };
}

/** The late fees owed at `now` (LoanNote.lateFeesOf, with where they run). */
export function lateFeesOwed(loan: ServicedLoan, now: bigint, params: Pick<ServicingParams, "lateFeeGracePeriod" | "lateFeeBps">): LateFees {
  const covered = installmentsCovered(loan.terms, loan.repaid);
  const from = Math.max(covered, loan.feesPaidThrough);
  const to = lateFeeInstallments(loan.terms, now, params.lateFeeGracePeriod);
  if (to <= from) return { amount: 0n, count: 0, from, through: from, first: 0n };
  const { amount } = lateFeesWithin(loan.terms, from, to, params.lateFeeBps);
  return { amount, count: to - from, from, through: to, first: lateFeeOf(loan.terms, from + 1, params.lateFeeBps) };
}

/** Installments past due plus the fees owed: LoanNote.amountDueNow. */
export function amountDueWithFees(loan: ServicedLoan, now: bigint, params: ServicingParams): bigint {
  return amountDueNow(loan.terms, loan.repaid, now) + lateFeesOwed(loan, now, params).amount;
}

/** What settles the loan now, fees included: LoanNote.payoffAmount. */
export function payoffWithFees(loan: ServicedLoan, now: bigint, params: ServicingParams): bigint {
  return payoffAmount(loan.terms, loan.repaid, now) + lateFeesOwed(loan, now, params).amount;
}

/** Where a loan not yet settled stands, its amount past due including the fees owed: LoanNote.pastDueOf. */
export function pastDueWithFees(loan: ServicedLoan, now: bigint, params: ServicingParams): PastDue {
  const due = pastDue(loan.terms, loan.repaid, now);
  return { ...due, amountPastDue: due.amountPastDue + lateFeesOwed(loan, now, params).amount };
}

/** The payoff split as an order at par prices an active loan, the fees owed counted as interest: LoanNote.noteStateOf. */
export function payoffSplitWithFees(loan: ServicedLoan, now: bigint, params: ServicingParams): PayoffSplit {
  const split = payoffSplit(loan.terms, loan.repaid, now);
  return { principal: split.principal, interest: split.interest + lateFeesOwed(loan, now, params).amount };
}

/**
 * The moment an active loan may be marked defaulted (LoanNote.defaultableAt): its oldest unpaid installment's due date
 * plus `defaultAfterDays` whole days, or maturity plus the grace period, whichever comes first; from that second on.
 */
export function defaultableAt(loan: Omit<ServicedLoan, "feesPaidThrough">, params: Pick<ServicingParams, "gracePeriod" | "defaultAfterDays">): bigint {
  const oldestUnpaid = dueDate(loan.terms, installmentsCovered(loan.terms, loan.repaid) + 1);
  const byDaysPastDue = oldestUnpaid + BigInt(params.defaultAfterDays) * DAY_SECONDS;
  const byMaturity = maturityDefaultAt(loan.terms, params.gracePeriod);
  return byDaysPastDue < byMaturity ? byDaysPastDue : byMaturity;
}

export interface RepaymentSplit {
  /** What the payment pays in late fees (whole fees only). */
  fees: bigint;
  /** What goes to installments (zero unless every owed fee is paid), capped at the payoff. */
  installments: bigint;
  /** The loan's feesPaidThrough after the payment. */
  feesPaidThrough: number;
}

/**
 * How LoanNote applies a payment of `amount` at `now`: whole owed fees first, in installment order, then installments
 * once every owed fee is paid. Null when the contract refuses it (PaymentBelowLateFee: less than the first owed fee).
 * fees + installments is what it takes from the payer (Repaid.amount).
 */
export function splitRepayment(loan: ServicedLoan, amount: bigint, now: bigint, params: ServicingParams): RepaymentSplit | null {
  const owed = lateFeesOwed(loan, now, params);
  if (owed.count === 0) {
    const payoff = payoffAmount(loan.terms, loan.repaid, now);
    return { fees: 0n, installments: amount < payoff ? amount : payoff, feesPaidThrough: loan.feesPaidThrough };
  }
  const paid = lateFeesWithin(loan.terms, owed.from, owed.through, params.lateFeeBps, amount);
  if (paid.through === owed.from) return null;
  if (paid.through < owed.through) return { fees: paid.amount, installments: 0n, feesPaidThrough: paid.through };
  const rest = amount - paid.amount;
  const payoff = payoffAmount(loan.terms, loan.repaid, now);
  return { fees: paid.amount, installments: rest < payoff ? rest : payoff, feesPaidThrough: paid.through };
}
