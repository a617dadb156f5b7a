import assert from "node:assert/strict";
import { test } from "node:test";
import { defaultableAt, lateFeeOf, lateFeesOwed, lateFeeTime, payoffWithFees, pastDueWithFees, splitRepayment, type ServicedLoan, type ServicingParams } from "./lateFees";
import { DAY_SECONDS, PERIOD_SECONDS, dueDate, lastInstallment, maturity, monthlyPayment, payoffAmount, type LoanTerms } from "./schedule";

const USD = 1_000_000n;
const terms: LoanTerms = { principal: 1_200n * USD, rateBps: 1_200, termMonths: 12, start: 1_000_000n };
const A = monthlyPayment(terms.principal, terms.rateBps, terms.termMonths);
const params: ServicingParams = { gracePeriod: 30n * DAY_SECONDS, lateFeeGracePeriod: 15n * DAY_SECONDS, lateFeeBps: 500, defaultAfterDays: 90 };
const fresh: ServicedLoan = { terms, repaid: 0n, feesPaidThrough: 0 };
const fee = (A * 500n) / 10_000n;

test("an unpaid installment owes its late fee from the second its grace period ends, not one second before", () => {
  const at = lateFeeTime(terms, 1, params.lateFeeGracePeriod);
  assert.equal(at, dueDate(terms, 1) + 15n * DAY_SECONDS);
  assert.deepEqual(lateFeesOwed(fresh, at - 1n, params), { amount: 0n, count: 0, from: 0, through: 0, first: 0n });
  assert.deepEqual(lateFeesOwed(fresh, at, params), { amount: fee, count: 1, from: 0, through: 1, first: fee });
});

test("an installment paid before its fee time owes none, and a fee once paid is not owed again", () => {
  const at = lateFeeTime(terms, 1, params.lateFeeGracePeriod);
  assert.equal(lateFeesOwed({ ...fresh, repaid: A }, at, params).amount, 0n);
  assert.equal(lateFeesOwed({ ...fresh, feesPaidThrough: 1 }, at + PERIOD_SECONDS - 1n, params).amount, 0n);
  assert.equal(lateFeesOwed({ ...fresh, feesPaidThrough: 1 }, at + PERIOD_SECONDS, params).amount, fee);
});

test("the last installment's fee is its own share of the last installment, which absorbs the rounding", () => {
  const all = lateFeesOwed(fresh, maturity(terms) + 15n * DAY_SECONDS, params);
  assert.equal(all.count, 12);
  assert.equal(lateFeeOf(terms, 12, 500), (lastInstallment(terms) * 500n) / 10_000n);
  assert.equal(all.amount, 11n * fee + lateFeeOf(terms, 12, 500));
});

test("a payment takes whole fees first, then installments only once no fee is left owing", () => {
  const at = lateFeeTime(terms, 2, params.lateFeeGracePeriod);
  assert.equal(splitRepayment(fresh, fee - 1n, at, params), null);
  assert.deepEqual(splitRepayment(fresh, fee + 1n, at, params), { fees: fee, installments: 0n, feesPaidThrough: 1 });
  assert.deepEqual(splitRepayment(fresh, 2n * fee + A, at, params), { fees: 2n * fee, installments: A, feesPaidThrough: 2 });
  const everything = payoffWithFees(fresh, at, params);
  assert.deepEqual(splitRepayment(fresh, everything + 5n, at, params), { fees: 2n * fee, installments: payoffAmount(terms, 0n, at), feesPaidThrough: 2 });
});

test("paying everything past due, fees included, cures the loan", () => {
  const at = lateFeeTime(terms, 2, params.lateFeeGracePeriod);
  const due = pastDueWithFees(fresh, at, params);
  assert.equal(due.amountPastDue, 2n * A + 2n * fee);
  const split = splitRepayment(fresh, due.amountPastDue, at, params)!;
  const cured = { terms, repaid: split.installments, feesPaidThrough: split.feesPaidThrough };
  assert.deepEqual(pastDueWithFees(cured, at, params), { dueDate: dueDate(terms, 3), daysPastDue: 0, amountPastDue: 0n });
});

test("a loan may default once its oldest unpaid installment is defaultAfterDays past due, or at maturity plus grace if sooner", () => {
  assert.equal(defaultableAt(fresh, params), dueDate(terms, 1) + 90n * DAY_SECONDS);
  assert.equal(defaultableAt({ terms, repaid: 11n * A }, params), maturity(terms) + params.gracePeriod);
  assert.equal(defaultableAt({ terms, repaid: 3n * A }, params), dueDate(terms, 4) + 90n * DAY_SECONDS);
});
