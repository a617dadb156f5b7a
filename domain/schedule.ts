/**
 * The one loan schedule, unit for unit the same as the LoanNote contract's
 * views (contracts/libraries/LoanMath.sol). Amounts are bigint in the stablecoin's smallest unit
 * (micro-dollars), times are bigint unix seconds.
 *
 * Rounding rule (integers only, RAY = 10^27):
 * - monthly rate r = floor(rateBps * RAY / 120000); growth G_k = g^k for g = RAY + r, by square-and-multiply
 *   with every product floored to RAY.
 * - monthly payment A = floor(P * floor(r * G_n / RAY) / (G_n - RAY)); with a zero rate A = floor(P / n).
 *   Rounding A down keeps every scheduled balance positive; the last installment absorbs the difference.
 * - scheduled balance after k installments B_k = floor(P * G_k / RAY - A * (G_k - RAY) / r), evaluated exactly
 *   (one rounding per balance, so errors never compound); zero rate: B_k = P - k * A.
 * - interest of period k < n: B_k - B_{k-1} + A; of period n: floor(B_{n-1} * rateBps / 120000).
 *   Installments 1..n-1 are A; installment n is B_{n-1} + interest_n.
 * - months are 30-day periods from the start; installment k is due at start + k * 30 days.
 * - settling at time t inside period p (1-based) costs, counted since the start,
 *   (p-1) * A + B_{p-1} + floor(interest_p * day / 30), day = whole days elapsed in the period + 1 (1..30);
 *   from maturity on it is the total due. Payoff = that minus what was repaid = outstanding principal plus the
 *   interest accrued in the current period; no prepayment penalty. The contract caps a payment at the payoff.
 * - outstanding principal applies each payment to its installment's interest first, then to principal.
 * - valid terms amortise: A * 120000 > P * rateBps (the first installment repays some principal).
 */

export const RAY = 10n ** 27n;
export const RATE_DENOMINATOR = 120_000n;
export const DAY_SECONDS = 86_400n;
export const PERIOD_SECONDS = 30n * DAY_SECONDS;
/** Bounds the contract enforces at origination. */
export const MIN_PRINCIPAL = 1_000_000n;
export const MAX_PRINCIPAL = 2n ** 56n - 1n;
export const MAX_RATE_BPS = 10_000;
export const MAX_TERM_MONTHS = 360;

export interface LoanTerms {
  principal: bigint;
  rateBps: number | bigint;
  termMonths: number | bigint;
  /** Unix seconds of origination. */
  start: bigint;
}

export interface ScheduleRow {
  /** 1-based installment number. */
  index: number;
  dueDate: bigint;
  payment: bigint;
  interest: bigint;
  principal: bigint;
  /** Scheduled principal balance after this installment. */
  balance: bigint;
}

interface Normalized {
  principal: bigint;
  rate: bigint;
  n: bigint;
  payment: bigint;
}

function rpow(x: bigint, n: bigint): bigint {
  let z = RAY;
  while (n !== 0n) {
    if (n & 1n) z = (z * x) / RAY;
    n >>= 1n;
    if (n !== 0n) x = (x * x) / RAY;
  }
  return z;
}

const monthlyRate = (rateBps: bigint): bigint => (rateBps * RAY) / RATE_DENOMINATOR;
const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b;

export function monthlyPayment(principal: bigint, rateBps: number | bigint, termMonths: number | bigint): bigint {
  const rate = BigInt(rateBps);
  const n = BigInt(termMonths);
  if (rate === 0n) return principal / n;
  const r = monthlyRate(rate);
  const f = rpow(RAY + r, n);
  return (principal * ((r * f) / RAY)) / (f - RAY);
}

function normalize(terms: LoanTerms): Normalized {
  const rate = BigInt(terms.rateBps);
  const n = BigInt(terms.termMonths);
  return { principal: terms.principal, rate, n, payment: monthlyPayment(terms.principal, rate, n) };
}

function balanceOf(t: Normalized, k: bigint): bigint {
  if (t.rate === 0n) return t.principal - k * t.payment;
  const r = monthlyRate(t.rate);
  const g = rpow(RAY + r, k);
  return (t.principal * g - ceilDiv(t.payment * (g - RAY) * RAY, r)) / RAY;
}

function interestOf(t: Normalized, k: bigint, balanceBefore: bigint): bigint {
  if (k < t.n) return balanceOf(t, k) + t.payment - balanceBefore;
  return (balanceBefore * t.rate) / RATE_DENOMINATOR;
}

function coveredInstallments(t: Normalized, repaid: bigint): bigint {
  const k = repaid / t.payment;
  return k > t.n - 1n ? t.n - 1n : k;
}

/** Whether the contract accepts these terms: within its bounds, and the first installment repays principal. */
export function isValidTerms(terms: Omit<LoanTerms, "start">): boolean {
  const rate = BigInt(terms.rateBps);
  const n = BigInt(terms.termMonths);
  if (terms.principal < MIN_PRINCIPAL || terms.principal > MAX_PRINCIPAL) return false;
  if (rate < 0n || rate > BigInt(MAX_RATE_BPS) || n < 1n || n > BigInt(MAX_TERM_MONTHS)) return false;
  return monthlyPayment(terms.principal, rate, n) * RATE_DENOMINATOR > terms.principal * rate;
}

export function totalDue(terms: LoanTerms): bigint {
  const t = normalize(terms);
  const last = balanceOf(t, t.n - 1n);
  return (t.n - 1n) * t.payment + last + (last * t.rate) / RATE_DENOMINATOR;
}

export function dueDate(terms: LoanTerms, installment: number | bigint): bigint {
  return terms.start + BigInt(installment) * PERIOD_SECONDS;
}

/** End of the last period. */
export function maturity(terms: LoanTerms): bigint {
  return dueDate(terms, terms.termMonths);
}

/** The latest moment a loan not repaid may be marked defaulted: maturity plus the grace period (see lateFees.ts). */
export function maturityDefaultAt(terms: LoanTerms, gracePeriodSeconds: bigint): bigint {
  return maturity(terms) + gracePeriodSeconds;
}

/** Regular installments fully covered by `repaid`, at most n-1: LoanMath.covered. */
export function installmentsCovered(terms: LoanTerms, repaid: bigint): number {
  return Number(coveredInstallments(normalize(terms), repaid));
}

/** The last installment, which absorbs the schedule's rounding: the total due less n-1 regular ones. */
export function lastInstallment(terms: LoanTerms): bigint {
  const t = normalize(terms);
  return totalDue(terms) - (t.n - 1n) * t.payment;
}

/** Every installment with its interest and principal parts. */
export function scheduleRows(terms: LoanTerms): ScheduleRow[] {
  const t = normalize(terms);
  const rows: ScheduleRow[] = [];
  let balance = t.principal;
  for (let k = 1n; k <= t.n; k++) {
    const interest = interestOf(t, k, balance);
    const payment = k < t.n ? t.payment : balance + interest;
    const principal = payment - interest;
    balance -= principal;
    rows.push({ index: Number(k), dueDate: dueDate(terms, k), payment, interest, principal, balance });
  }
  return rows;
}

/** What settles the loan at `timestamp`, counted since the start (not net of repayments). */
export function settlementValue(terms: LoanTerms, timestamp: bigint): bigint {
  const t = normalize(terms);
  const elapsed = timestamp > terms.start ? timestamp - terms.start : 0n;
  const completed = elapsed / PERIOD_SECONDS;
  if (completed >= t.n) return totalDue(terms);
  const balance = balanceOf(t, completed);
  const day = (elapsed % PERIOD_SECONDS) / DAY_SECONDS + 1n;
  return completed * t.payment + balance + (interestOf(t, completed + 1n, balance) * day) / 30n;
}

/** Outstanding principal plus the interest accrued in the current period, net of what was repaid. */
export function payoffAmount(terms: LoanTerms, repaid: bigint, timestamp: bigint): bigint {
  const value = settlementValue(terms, timestamp);
  return value > repaid ? value - repaid : 0n;
}

/** Installments fallen due by `timestamp` and not yet paid. */
export function amountDueNow(terms: LoanTerms, repaid: bigint, timestamp: bigint): bigint {
  const t = normalize(terms);
  const elapsed = timestamp > terms.start ? timestamp - terms.start : 0n;
  const due = elapsed / PERIOD_SECONDS;
  const scheduled = due >= t.n ? totalDue(terms) : due * t.payment;
  return scheduled > repaid ? scheduled - repaid : 0n;
}

/** Due date of the first installment not fully paid. */
export function nextDueDate(terms: LoanTerms, repaid: bigint): bigint {
  return dueDate(terms, coveredInstallments(normalize(terms), repaid) + 1n);
}

/**
 * How many installments `repaid` covers in full: installment k is paid once the note's repayments reach the
 * schedule's payments through k (the last absorbs rounding, so all of them only at the total due).
 */
export function installmentsPaid(terms: LoanTerms, repaid: bigint): number {
  const t = normalize(terms);
  return Number(repaid >= totalDue(terms) ? t.n : coveredInstallments(t, repaid));
}

/** Scheduled principal not yet repaid, each payment applied to its installment's interest first. */
export function outstandingBalance(terms: LoanTerms, repaid: bigint): bigint {
  const t = normalize(terms);
  const k = coveredInstallments(t, repaid);
  const balance = balanceOf(t, k);
  const partial = repaid - k * t.payment;
  const interest = interestOf(t, k + 1n, balance);
  if (partial <= interest) return balance;
  const toPrincipal = partial - interest;
  return toPrincipal >= balance ? 0n : balance - toPrincipal;
}

/** The amount a payment of `amount` really moves: the contract caps it at the payoff. */
export function cappedPayment(terms: LoanTerms, repaid: bigint, amount: bigint, timestamp: bigint): bigint {
  const owed = payoffAmount(terms, repaid, timestamp);
  return amount < owed ? amount : owed;
}
