import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PERIOD_SECONDS, monthlyPayment, outstandingBalance, scheduleRows } from "#domain/schedule";
import { interestOf, punctuality } from "./service";

const USD = 1_000_000n;
const start = 1_700_000_000n;
const terms = { principal: 6_000n * USD, rateBps: 1200, termMonths: 6, start };
const payment = monthlyPayment(terms.principal, terms.rateBps, terms.termMonths);
const at = (seconds: bigint) => new Date(Number(seconds) * 1000);

describe("Performance figures", () => {
  it("counts an installment paid after its due date as late, and one not yet due as nothing", () => {
    const now = start + 2n * PERIOD_SECONDS + 10n;
    const repayments = [
      { total_repaid: String(payment), block_time: at(start + PERIOD_SECONDS - 60n) },
      { total_repaid: String(payment * 2n), block_time: at(start + 2n * PERIOD_SECONDS + 5n) },
    ];
    assert.deepEqual(punctuality(terms, repayments, null, now), { due: 2, onTime: 1 });
  });

  it("counts an unpaid installment past its due date as due and not on time", () => {
    const now = start + PERIOD_SECONDS + 1n;
    assert.deepEqual(punctuality(terms, [], null, now), { due: 1, onTime: 0 });
  });

  it("counts every installment on time when the loan is paid off early", () => {
    const paidOff = start + 3n * 86_400n;
    assert.deepEqual(punctuality(terms, [{ total_repaid: "1", block_time: at(paidOff) }], paidOff, paidOff + 1n), { due: 6, onTime: 6 });
  });

  it("takes a scheduled payment's interest part as interest, and a payoff's excess over the principal it retires", () => {
    const [first] = scheduleRows(terms);
    assert.equal(interestOf(terms, { amount: String(payment), total_repaid: String(payment) }, false), first.interest);
    const remaining = outstandingBalance(terms, payment);
    const payoff = remaining + 7n * USD;
    assert.equal(interestOf(terms, { amount: String(payoff), total_repaid: String(payment + payoff) }, true), 7n * USD);
  });
});
