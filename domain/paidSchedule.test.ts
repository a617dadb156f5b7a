import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { paidSchedule } from "./paidSchedule";
import { monthlyPayment, payoffAmount, scheduleRows, totalDue, PERIOD_SECONDS, DAY_SECONDS, type LoanTerms } from "./schedule";

const terms: LoanTerms = { principal: 12_000_000_000n, rateBps: 1200, termMonths: 18, start: 1_700_000_000n };
const payment = monthlyPayment(terms.principal, terms.rateBps, terms.termMonths);
const sum = (values: bigint[]) => values.reduce((a, b) => a + b, 0n);

describe("the schedule as it was really paid", () => {
  it("after an early payoff shows the installments paid, the rest settled, and the payoff line; together they are the amount repaid", () => {
    // Two installments, then a payoff on day 10 of the third month.
    const when = terms.start + 2n * PERIOD_SECONDS + 9n * DAY_SECONDS;
    const payoff = payoffAmount(terms, 2n * payment, when);
    const repaid = 2n * payment + payoff;
    assert.ok(repaid < totalDue(terms));
    const schedule = paidSchedule(terms, repaid, { completed: true, finalPayment: payoff, now: when });
    assert.deepEqual(
      schedule.rows.map((r) => r.state),
      ["paid", "paid", ...Array(16).fill("settled")],
    );
    assert.deepEqual(
      schedule.rows.slice(0, 2).map((r) => r.paid),
      [payment, payment],
    );
    assert.ok(schedule.rows.slice(2).every((r) => r.paid === 0n && r.owed === 0n));
    assert.equal(schedule.payoff, payoff);
    assert.equal(sum(schedule.rows.map((r) => r.paid)) + schedule.payoff!, repaid);
    assert.equal(schedule.totalPaid, repaid);
  });

  it("a payoff at the very start leaves every installment settled", () => {
    const payoff = payoffAmount(terms, 0n, terms.start);
    const schedule = paidSchedule(terms, payoff, { completed: true, finalPayment: payoff, now: terms.start });
    assert.ok(schedule.rows.every((r) => r.state === "settled" && r.paid === 0n));
    assert.equal(schedule.payoff, payoff);
  });

  it("a loan repaid installment by installment has no payoff line and every row paid in full", () => {
    const schedule = paidSchedule(terms, totalDue(terms), { completed: true, finalPayment: scheduleRows(terms).at(-1)!.payment, now: terms.start });
    assert.equal(schedule.payoff, null);
    assert.ok(schedule.rows.every((r) => r.state === "paid" && r.paid === r.payment));
  });

  it("an active loan shows a part-paid installment with what is left, and late ones by their due date", () => {
    const now = terms.start + 3n * PERIOD_SECONDS + DAY_SECONDS;
    const schedule = paidSchedule(terms, payment + 100_000_000n, { completed: false, finalPayment: null, now });
    const [first, second, third, fourth] = schedule.rows;
    assert.equal(first.state, "paid");
    assert.equal(second.paid, 100_000_000n);
    assert.equal(second.owed, payment - 100_000_000n);
    assert.equal(second.state, "late");
    assert.equal(third.state, "late");
    assert.equal(fourth.state, "due");
    assert.equal(schedule.payoff, null);
  });
});
