import { scheduleRows, PERIOD_SECONDS, type LoanTerms } from "./schedule";

/** One payment the holder of a note still expects: its amount and when, in 30-day months from now. */
export interface CashFlow {
  amount: bigint;
  months: number;
}

/**
 * The installments not yet paid, as the buyer of the note would receive them: each installment's unpaid part at its
 * due date, an overdue one counted as due now. Repayments cover installments in order (as `outstandingBalance`).
 */
export function remainingCashFlows(terms: LoanTerms, repaid: bigint, now: bigint): CashFlow[] {
  const flows: CashFlow[] = [];
  let paidSoFar = 0n;
  for (const row of scheduleRows(terms)) {
    const before = paidSoFar;
    paidSoFar += row.payment;
    if (paidSoFar <= repaid) continue;
    const amount = before >= repaid ? row.payment : paidSoFar - repaid;
    const ahead = row.dueDate > now ? row.dueDate - now : 0n;
    flows.push({ amount, months: Number(ahead) / Number(PERIOD_SECONDS) });
  }
  return flows;
}

const presentValue = (flows: CashFlow[], monthlyRate: number) => flows.reduce((sum, f) => sum + Number(f.amount) / (1 + monthlyRate) ** f.months, 0);

/**
 * The buyer's yield to maturity at `price`: the annual rate, compounded monthly like the loan's own rate, at which
 * the remaining installments are worth the price today. In percent (9 = 9% a year); null when nothing is left to
 * receive or the price is not positive. A ratio, not money, so floating point is right here.
 */
export function yieldToMaturity(terms: LoanTerms, repaid: bigint, price: bigint, now: bigint): number | null {
  const flows = remainingCashFlows(terms, repaid, now);
  if (flows.length === 0 || price <= 0n) return null;
  const target = Number(price);
  // Present value falls as the rate rises: bisect between a 99.9% monthly loss and a 1,000% monthly gain.
  let low = -0.999;
  let high = 10;
  for (let i = 0; i < 200 && high - low > 1e-12; i++) {
    const mid = (low + high) / 2;
    if (presentValue(flows, mid) > target) low = mid;
    else high = mid;
  }
  return Math.round(((low + high) / 2) * 12 * 100 * 100) / 100;
}
