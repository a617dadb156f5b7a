import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { paymentSplit } from "./paymentSplit";
import { payoffAmount, scheduleRows, totalDue } from "./schedule";

const terms = { principal: 12_000_000_000n, rateBps: 1200, termMonths: 12, start: 0n };
const rows = scheduleRows(terms);

describe("paymentSplit: a repayment's interest and principal", () => {
  it("splits each scheduled installment as the schedule does", () => {
    let repaid = 0n;
    rows.forEach((row, i) => {
      repaid += row.payment;
      const split = paymentSplit(terms, row.payment, repaid, i === rows.length - 1);
      assert.deepEqual(split, { interest: row.interest, principal: row.principal, balanceAfter: row.balance });
    });
    assert.equal(repaid, totalDue(terms));
  });

  it("retires everything left with an early payoff, the rest being the interest accrued", () => {
    const first = rows[0].payment;
    const payoff = payoffAmount(terms, first, 40n * 86_400n);
    const split = paymentSplit(terms, payoff, first + payoff, true);
    assert.equal(split.principal, rows[0].balance);
    assert.equal(split.balanceAfter, 0n);
    assert.equal(split.interest + split.principal, payoff);
  });

  it("counts a partial payment as interest first", () => {
    const split = paymentSplit(terms, 50_000_000n, 50_000_000n, false);
    assert.deepEqual(split, { interest: 50_000_000n, principal: 0n, balanceAfter: terms.principal });
  });
});
