/**
 * Internal rates of return of dated cash flows: one note's (IRR) or a whole portfolio's (XIRR). Amounts are
 * bigint micro-dollars (negative = paid out, positive = received), times unix seconds. The result is a ratio, not
 * money, so floating point is right here; it is annualised on a 365-day year, as spreadsheets' XIRR counts it.
 */

export interface DatedFlow {
  amount: bigint;
  /** Unix seconds. */
  time: bigint;
}

const YEAR_SECONDS = 365 * 86_400;
const LOWEST = -0.999999;
const TOLERANCE = 1e-10;

interface Prepared {
  amounts: number[];
  years: number[];
}

function prepare(flows: DatedFlow[]): Prepared {
  // In time order, so the same flows give the same figure to the last digit whatever order they came in.
  const sorted = [...flows].sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
  const t0 = sorted[0].time;
  return { amounts: sorted.map((f) => Number(f.amount)), years: sorted.map((f) => Number(f.time - t0) / YEAR_SECONDS) };
}

/** Net present value at the annual `rate`, discounted to the earliest flow. */
export function xnpv(rate: number, flows: DatedFlow[]): number {
  if (flows.length === 0) return 0;
  const p = prepare(flows);
  return npv(rate, p);
}

function npv(rate: number, p: Prepared): number {
  let sum = 0;
  for (let i = 0; i < p.amounts.length; i++) sum += p.amounts[i] / (1 + rate) ** p.years[i];
  return sum;
}

function derivative(rate: number, p: Prepared): number {
  let sum = 0;
  for (let i = 0; i < p.amounts.length; i++) sum -= (p.years[i] * p.amounts[i]) / (1 + rate) ** (p.years[i] + 1);
  return sum;
}

/**
 * The annual rate at which the flows' net present value is zero (0.1 = 10% a year), or null when there is none to
 * find: no flows of both signs, or every flow on one day. Newton's method from 10%; when it leaves the domain or
 * does not settle, bisection over a bracket where the value changes sign, which always converges.
 */
export function xirr(flows: DatedFlow[]): number | null {
  if (!flows.some((f) => f.amount < 0n) || !flows.some((f) => f.amount > 0n)) return null;
  const p = prepare(flows);
  if (p.years.every((y) => y === 0)) return null;
  const scale = p.amounts.reduce((s, a) => s + Math.abs(a), 0);

  let rate = 0.1;
  for (let i = 0; i < 50; i++) {
    const value = npv(rate, p);
    if (Math.abs(value) <= TOLERANCE * scale) return rate;
    const slope = derivative(rate, p);
    if (!Number.isFinite(slope) || slope === 0) break;
    const next = rate - value / slope;
    if (!Number.isFinite(next) || next <= LOWEST) break;
    if (Math.abs(next - rate) < 1e-12) return next;
    rate = next;
  }
  return bisect(p);
}

function bisect(p: Prepared): number | null {
  let low = LOWEST;
  let high = 1;
  let lowValue = npv(low, p);
  // Widen upwards until the value changes sign (a return above 100% a year is possible over short periods).
  while (Math.sign(npv(high, p)) === Math.sign(lowValue) && high < 1e6) high *= 10;
  if (Math.sign(npv(high, p)) === Math.sign(lowValue)) return null;
  for (let i = 0; i < 300 && high - low > 1e-12; i++) {
    const mid = (low + high) / 2;
    const value = npv(mid, p);
    if (Math.sign(value) === Math.sign(lowValue)) {
      low = mid;
      lowValue = value;
    } else high = mid;
  }
  return (low + high) / 2;
}

/** A rate as the wire's percent with two decimals (0.1 → 10), or null. */
export function ratePercent(rate: number | null): number | null {
  if (rate === null || !Number.isFinite(rate)) return null;
  const percent = Math.round(rate * 10_000) / 100;
  return percent === 0 ? 0 : percent; // never -0 on the wire
}
