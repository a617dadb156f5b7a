import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PERIOD_SECONDS, outstandingBalance, scheduleRows, type LoanTerms } from "./schedule";
import { remainingCashFlows, yieldToMaturity } from "./noteYield";

const start = 1_700_000_000n;
const loan: LoanTerms = { principal: 12_000_000_000n, rateBps: 900, termMonths: 18, start };

describe("a note buyer's yield to maturity", () => {
  it("is the loan's own rate when a fresh note is bought at its principal", () => {
    assert.equal(yieldToMaturity(loan, 0n, loan.principal, start), 9);
  });

  it("is the loan's rate again after six installments, bought at the outstanding principal", () => {
    const repaid = scheduleRows(loan)
      .slice(0, 6)
      .reduce((s, r) => s + r.payment, 0n);
    const now = start + 6n * PERIOD_SECONDS;
    assert.equal(yieldToMaturity(loan, repaid, outstandingBalance(loan, repaid), now), 9);
  });

  it("rises when the note is bought below par and falls above it", () => {
    assert.ok(yieldToMaturity(loan, 0n, 11_000_000_000n, start)! > 9);
    assert.ok(yieldToMaturity(loan, 0n, 12_500_000_000n, start)! < 9);
  });

  it("matches a hand computation for one payment of $110 a year away, bought at $100 (12 × (1.1^(1/12) − 1) = 9.57%)", () => {
    const single: LoanTerms = { principal: 110_000_000n, rateBps: 0, termMonths: 1, start };
    // The one installment is due one period after the start; twelve periods before that, it is a year away.
    const now = start + PERIOD_SECONDS - 12n * PERIOD_SECONDS;
    assert.equal(yieldToMaturity(single, 0n, 100_000_000n, now), 9.57);
  });

  it("counts only what is still unpaid: a partly paid installment is its rest, paid ones are gone", () => {
    const rows = scheduleRows(loan);
    const repaid = rows[0].payment + 100_000_000n;
    const flows = remainingCashFlows(loan, repaid, start);
    assert.equal(flows.length, 17);
    assert.equal(flows[0].amount, rows[1].payment - 100_000_000n);
    assert.equal(
      flows.reduce((s, f) => s + f.amount, 0n),
      rows.reduce((s, r) => s + r.payment, 0n) - repaid,
    );
  });

  it("counts an overdue installment as due now", () => {
    const flows = remainingCashFlows(loan, 0n, start + 3n * PERIOD_SECONDS + 86_400n);
    assert.deepEqual(
      flows.slice(0, 3).map((f) => f.months),
      [0, 0, 0],
    );
  });

  it("has no yield when nothing is left to receive or the price is zero", () => {
    const everything = scheduleRows(loan).reduce((s, r) => s + r.payment, 0n);
    assert.equal(yieldToMaturity(loan, everything, 1_000_000n, start), null);
    assert.equal(yieldToMaturity(loan, 0n, 0n, start), null);
  });
});
