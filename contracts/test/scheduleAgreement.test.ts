import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import fc from "fast-check";
import { amountDueWithFees, payoffWithFees, splitRepayment } from "#domain/lateFees";
import * as schedule from "#domain/schedule";
import { SERVICING_PARAMS, deployLoanNoteFixture, type LoanNoteFixture } from "./fixtures";
import { DAY, fund } from "./helpers";

const LOANS = 500;

const validTerms = fc
  .record({
    principal: fc.oneof(fc.bigInt({ min: schedule.MIN_PRINCIPAL, max: 10n ** 13n }), fc.bigInt({ min: schedule.MIN_PRINCIPAL, max: schedule.MAX_PRINCIPAL })),
    rateBps: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 5_000 }), fc.integer({ min: 0, max: schedule.MAX_RATE_BPS })),
    termMonths: fc.oneof(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: schedule.MAX_TERM_MONTHS })),
  })
  .filter(schedule.isValidTerms);

describe("the domain schedule and the contract", () => {
  let f: LoanNoteFixture;
  const loans: { tokenId: bigint; terms: schedule.LoanTerms; repaid: bigint; feesPaidThrough: number }[] = [];

  before(async () => {
    f = await deployLoanNoteFixture();
    const samples = fc.sample(validTerms, { numRuns: LOANS, seed: 20240917 });
    await f.dollar.write.mint([f.accounts.treasury.account.address, samples.reduce((s, t) => s + t.principal, 0n)]);
    for (const [i, t] of samples.entries()) {
      const tokenId = BigInt(i + 1);
      const hash = await f.note.write.originate([tokenId, f.accounts.borrower.account.address, t.principal, t.rateBps, t.termMonths], {
        account: f.accounts.originator.account,
      });
      const receipt = await f.publicClient.getTransactionReceipt({ hash });
      const { timestamp } = await f.publicClient.getBlock({ blockNumber: receipt.blockNumber });
      loans.push({ tokenId, terms: { ...t, start: timestamp }, repaid: 0n, feesPaidThrough: 0 });
    }
  });

  async function compareAll(label: string) {
    const at = (await f.publicClient.getBlock()).timestamp;
    for (const loan of loans) {
      const { tokenId, terms, repaid } = loan;
      const [payment, total, next, due, outstanding, payoff] = await Promise.all([
        f.note.read.monthlyPayment([tokenId]),
        f.note.read.totalDue([tokenId]),
        f.note.read.nextDueDate([tokenId]),
        f.note.read.amountDueNow([tokenId]),
        f.note.read.outstandingBalance([tokenId]),
        f.note.read.payoffAmount([tokenId]),
      ]);
      const where = `${label}, loan ${tokenId} ${JSON.stringify(terms, (_, v) => (typeof v === "bigint" ? String(v) : v))}`;
      assert.equal(payment, schedule.monthlyPayment(terms.principal, terms.rateBps, terms.termMonths), where);
      assert.equal(total, schedule.totalDue(terms), where);
      assert.equal(next, schedule.nextDueDate(terms, repaid), where);
      assert.equal(due, amountDueWithFees(loan, at, SERVICING_PARAMS), where);
      assert.equal(outstanding, schedule.outstandingBalance(terms, repaid), where);
      assert.equal(payoff, payoffWithFees(loan, at, SERVICING_PARAMS), where);
    }
  }

  it(`agree to the unit on ${LOANS} random loans at origination`, async () => {
    assert.equal(loans.length, LOANS);
    await compareAll("at origination");
  });

  it("agree after random partial repayments and time passing, up to and beyond maturity", async () => {
    const borrower = f.accounts.borrower;
    await fund(f, borrower, 0n, f.note.address);
    const amounts = fc.sample(fc.bigInt({ min: 1n, max: 10n ** 12n }), { numRuns: LOANS, seed: 7 });
    for (const [jump, label] of [
      [17n * DAY + 3_600n, "after 17 days"],
      [400n * DAY, "after 417 days"],
      [11_000n * DAY, "after 30 years"],
    ] as const) {
      await f.networkHelpers.time.increase(jump);
      // Partial payments on every fifth loan, always below the payoff (late fees included) so the loan stays open;
      // one below the first late fee owed is refused, as the domain says it is.
      for (const [i, loan] of loans.entries()) {
        if (i % 5 !== 0) continue;
        await f.dollar.write.mint([borrower.account.address, amounts[i]]);
        const next = (await f.publicClient.getBlock()).timestamp + 1n;
        const amount = amounts[i] % payoffWithFees(loan, next, SERVICING_PARAMS);
        if (amount === 0n) continue;
        const split = splitRepayment(loan, amount, next, SERVICING_PARAMS);
        await f.networkHelpers.time.setNextBlockTimestamp(next);
        if (!split) {
          await f.viem.assertions.revertWithCustomError(f.note.write.repay([loan.tokenId, amount], { account: borrower.account }), f.note, "PaymentBelowLateFee");
          continue;
        }
        await f.note.write.repay([loan.tokenId, amount], { account: borrower.account });
        loan.repaid += split.installments;
        loan.feesPaidThrough = split.feesPaidThrough;
      }
      await compareAll(label);
    }
  });

  it("agree through the math harness at the corners of the valid terms, where the unchecked products are largest", async () => {
    const harness = await f.viem.deployContract("LoanMathHarness");
    const start = 1_700_000_000n;
    const corners = [
      { principal: schedule.MAX_PRINCIPAL, rateBps: schedule.MAX_RATE_BPS, termMonths: schedule.MAX_TERM_MONTHS },
      { principal: schedule.MAX_PRINCIPAL, rateBps: schedule.MAX_RATE_BPS, termMonths: 1 },
      { principal: schedule.MAX_PRINCIPAL, rateBps: 1, termMonths: schedule.MAX_TERM_MONTHS },
      { principal: schedule.MAX_PRINCIPAL, rateBps: 0, termMonths: schedule.MAX_TERM_MONTHS },
      { principal: schedule.MIN_PRINCIPAL, rateBps: 1, termMonths: schedule.MAX_TERM_MONTHS },
    ];
    let compared = 0;
    for (const t of corners) {
      assert.ok(
        schedule.isValidTerms(t),
        JSON.stringify(t, (_, v) => (typeof v === "bigint" ? String(v) : v)),
      );
      const terms = { ...t, start };
      for (const month of [0n, 1n, 179n, 358n, 359n, 360n, 400n]) {
        const at = start + month * 30n * DAY + 29n * DAY;
        const settlement = schedule.settlementValue(terms, at);
        for (const repaid of [0n, settlement / 2n, settlement - 1n]) {
          const got = await harness.read.views([t.principal, BigInt(t.rateBps), BigInt(t.termMonths), start, repaid, at]);
          assert.deepEqual(got, [
            schedule.monthlyPayment(t.principal, t.rateBps, t.termMonths),
            schedule.totalDue(terms),
            settlement,
            schedule.amountDueNow(terms, repaid, at),
            schedule.nextDueDate(terms, repaid),
            schedule.outstandingBalance(terms, repaid),
          ]);
          compared++;
        }
      }
    }
    assert.equal(compared, corners.length * 7 * 3);
  });

  it("round x * RAY / r up the same on both sides of the one-division fast path (x below 2^160)", async () => {
    const harness = await f.viem.deployContract("LoanMathHarness");
    const r = (schedule.RAY * 3n) / 1_000n + 7n;
    const xs = [0n, 1n, 2n ** 160n - 1n, 2n ** 160n, 2n ** 160n + 1n, 2n ** 167n, 2n ** 197n + 12_345n, r, r * 1_000n + 1n];
    for (const x of xs) {
      const exact = (x * schedule.RAY + r - 1n) / r;
      assert.equal(await harness.read.mulRayDivUp([x, r]), exact, `x = ${x}`);
    }
  });

  it("agree through the math harness on random repaid amounts and moments", async () => {
    const harness = await f.viem.deployContract("LoanMathHarness");
    const cases = fc.sample(fc.tuple(validTerms, fc.bigInt({ min: 0n, max: 400n * 30n * DAY }), fc.double({ min: 0, max: 1, noNaN: true })), { numRuns: 1_000, seed: 99 });
    const start = 1_700_000_000n;
    for (const [t, offset, share] of cases) {
      const terms = { ...t, start };
      const at = start + offset;
      const repaid = (schedule.settlementValue(terms, at) * BigInt(Math.floor(share * 1e6))) / 1_000_000n;
      const [payment, total, settlement, due, next, outstanding] = await harness.read.views([t.principal, BigInt(t.rateBps), BigInt(t.termMonths), start, repaid, at]);
      assert.deepEqual(
        [payment, total, settlement, due, next, outstanding],
        [
          schedule.monthlyPayment(t.principal, t.rateBps, t.termMonths),
          schedule.totalDue(terms),
          schedule.settlementValue(terms, at),
          schedule.amountDueNow(terms, repaid, at),
          schedule.nextDueDate(terms, repaid),
          schedule.outstandingBalance(terms, repaid),
        ],
      );
    }
  });
});
