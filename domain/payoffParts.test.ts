import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { DAY_SECONDS, MAX_RATE_BPS, PERIOD_SECONDS, payoffAmount, scheduleRows, totalDue, isValidTerms, type LoanTerms } from "./schedule";
import { payoffParts } from "./payoffParts";

const start = 1_700_000_000n;
const loan: LoanTerms = { principal: 5_000_000_000n, rateBps: 1000, termMonths: 12, start };

describe("the parts of a payoff", () => {
  it("add up to the payoff amount for any terms, repayment and day", () => {
    const terms = fc
      .record({ principal: fc.bigInt({ min: 1_000_000n, max: 10n ** 12n }), rateBps: fc.integer({ min: 0, max: MAX_RATE_BPS }), termMonths: fc.integer({ min: 1, max: 60 }) })
      .filter(isValidTerms)
      .map((t) => ({ ...t, start }));
    fc.assert(
      fc.property(terms, fc.nat({ max: 1000 }), fc.double({ min: 0, max: 1, noNaN: true }), (t, days, share) => {
        const now = start + BigInt(days) * DAY_SECONDS;
        const repaid = BigInt(Math.floor(Number(totalDue(t)) * share));
        const payoff = payoffAmount(t, repaid, now);
        const p = payoffParts(t, repaid, now);
        if (payoff > 0n) assert.equal(p.balance + p.accrued - p.ahead, payoff);
      }),
    );
  });

  it("explains a payoff below the principal still owed: the first installment, paid on day one, carried a whole month's interest", () => {
    const first = scheduleRows(loan)[0];
    const p = payoffParts(loan, first.payment, start);
    assert.equal(p.day, 1);
    assert.equal(p.balance, loan.principal);
    assert.equal(p.accrued, first.interest / 30n);
    assert.equal(p.ahead, first.payment);
    assert.ok(payoffAmount(loan, first.payment, start) < loan.principal - first.principal);
  });

  it("counts unpaid installments already due as owed, and nothing accrues after maturity", () => {
    const late = payoffParts(loan, 0n, start + 2n * PERIOD_SECONDS + 5n * DAY_SECONDS);
    assert.equal(late.day, 6);
    assert.ok(late.ahead < 0n);
    const matured = payoffParts(loan, 0n, start + 13n * PERIOD_SECONDS);
    assert.deepEqual(matured, { balance: 0n, accrued: 0n, day: 0, ahead: -totalDue(loan) });
  });

  it("has matured from the exact second the last period ends, and is on the last period's day 30 one second before", () => {
    const maturity = start + 12n * PERIOD_SECONDS;
    assert.deepEqual(payoffParts(loan, 0n, maturity), { balance: 0n, accrued: 0n, day: 0, ahead: -totalDue(loan) });
    const lastSecond = payoffParts(loan, 0n, maturity - 1n);
    const rows = scheduleRows(loan);
    assert.deepEqual(lastSecond, { balance: rows[10].balance, accrued: rows[11].interest, day: 30, ahead: -11n * rows[0].payment });
  });

  it("reads a moment before the loan's start, however long before, as its first day", () => {
    const first = payoffParts(loan, 0n, start);
    assert.deepEqual(first, { balance: loan.principal, accrued: scheduleRows(loan)[0].interest / 30n, day: 1, ahead: 0n });
    for (const before of [1n, DAY_SECONDS, 40n * DAY_SECONDS, 400n * DAY_SECONDS]) assert.deepEqual(payoffParts(loan, 0n, start - before), first);
  });
});
