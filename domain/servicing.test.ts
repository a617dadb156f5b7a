import { test } from "node:test";
import assert from "node:assert/strict";
import { DAY_SECONDS, PERIOD_SECONDS, monthlyPayment, payoffAmount, type LoanTerms } from "./schedule";
import { pastDue, payoffSplit, performanceGrade, servicingStatus } from "./servicing";

const USD = 1_000_000n;
const terms: LoanTerms = { principal: 5_000n * USD, rateBps: 1_500, termMonths: 12, start: 1_000_000n };
const payment = monthlyPayment(terms.principal, terms.rateBps, terms.termMonths);
const firstDue = terms.start + PERIOD_SECONDS;

test("a loan is current up to the second before its first due date and one day past due at that second", () => {
  assert.deepEqual(pastDue(terms, 0n, firstDue - 1n), { dueDate: firstDue, daysPastDue: 0, amountPastDue: 0n });
  assert.deepEqual(pastDue(terms, 0n, firstDue), { dueDate: firstDue, daysPastDue: 1, amountPastDue: payment });
  assert.equal(pastDue(terms, 0n, firstDue + DAY_SECONDS - 1n).daysPastDue, 1);
  assert.equal(pastDue(terms, 0n, firstDue + DAY_SECONDS).daysPastDue, 2);
});

test("paying what is past due cures the loan: the next due date moves on and nothing is past due", () => {
  const late = pastDue(terms, 0n, firstDue + 5n * DAY_SECONDS);
  const cured = pastDue(terms, late.amountPastDue, firstDue + 5n * DAY_SECONDS);
  assert.deepEqual(cured, { dueDate: firstDue + PERIOD_SECONDS, daysPastDue: 0, amountPastDue: 0n });
});

test("days past due count from the oldest unpaid installment, however many have fallen due since", () => {
  const threeMissed = pastDue(terms, 0n, terms.start + 3n * PERIOD_SECONDS);
  assert.equal(threeMissed.daysPastDue, 61);
  assert.equal(threeMissed.amountPastDue, 3n * payment);
});

test("the servicing status reads late from one day past due and delinquent from thirty", () => {
  assert.equal(servicingStatus("active", 0), "current");
  assert.equal(servicingStatus("active", 1), "late");
  assert.equal(servicingStatus("active", 29), "late");
  assert.equal(servicingStatus("active", 30), "delinquent");
  assert.equal(servicingStatus("defaulted", 200), "defaulted");
  assert.equal(servicingStatus("repaid", 0), "repaid");
});

test("the grade follows the status: current with payments excellent, before any good, late average, worse poor", () => {
  assert.equal(performanceGrade("current", 1n), "excellent");
  assert.equal(performanceGrade("current", 0n), "good");
  assert.equal(performanceGrade("late", 1n), "average");
  assert.equal(performanceGrade("delinquent", 1n), "poor");
  assert.equal(performanceGrade("defaulted", 0n), "poor");
  assert.equal(performanceGrade("repaid", 1n), "excellent");
});

test("a payoff splits into the principal still owed and the interest accrued and unpaid", () => {
  const inGrace = terms.start + 12n * PERIOD_SECONDS + 10n * DAY_SECONDS;
  const split = payoffSplit(terms, 0n, inGrace);
  assert.equal(split.principal, terms.principal, "nothing repaid: all the principal is still owed");
  assert.equal(split.principal + split.interest, payoffAmount(terms, 0n, inGrace));
  assert.ok(split.interest > 400n * USD, "a year of unpaid interest on $5,000 at 15% is part of what settles it");
});

test("an installment paid ahead caps the principal part at the payoff, so the interest part is never negative", () => {
  const early = terms.start + DAY_SECONDS;
  const split = payoffSplit(terms, 6n * payment, early);
  assert.equal(split.interest, 0n);
  assert.equal(split.principal, payoffAmount(terms, 6n * payment, early));
});
