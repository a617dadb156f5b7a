import assert from "node:assert/strict";
import { before, beforeEach, describe, it } from "node:test";
import fc from "fast-check";
import { getAddress, parseEventLogs } from "viem";
import { amountDueWithFees, defaultableAt, lateFeeOf, lateFeeTime, lateFeesOwed, lateFeesWithin, payoffWithFees, splitRepayment, type ServicedLoan, type ServicingParams } from "#domain/lateFees";
import * as schedule from "#domain/schedule";
import { DEFAULT_TERMS, ROLES, SERVICING_PARAMS, deployLoanNoteFixture, type LoanNoteFixture } from "./fixtures";
import { DAY, PERIOD, fund, propertySeed, seedHint } from "./helpers";

/** Late fees charged from the schedule alone, paid before installments, and a default by days past due. */
describe("late fees and default by days past due", () => {
  let f: LoanNoteFixture;
  let restore: () => Promise<void>;
  const P = DEFAULT_TERMS.principal;
  const params = SERVICING_PARAMS;

  before(async () => {
    f = await deployLoanNoteFixture();
    await fund(f, f.accounts.borrower, 100n * P, f.note.address);
    const snapshot = await f.networkHelpers.takeSnapshot();
    restore = () => snapshot.restore();
  });
  beforeEach(async () => restore());

  const holder = () => f.wallets[ROLES.firstUser];
  const asBorrower = () => ({ account: f.accounts.borrower.account });
  const repay = (tokenId: bigint, amount: bigint) => f.note.write.repay([tokenId, amount], asBorrower());
  /** The next transaction's block will be at `at`. */
  const pin = (at: bigint) => f.networkHelpers.time.setNextBlockTimestamp(at);
  const stored = async (tokenId: bigint): Promise<ServicedLoan> => {
    const loan = await f.note.read.loanOf([tokenId]);
    return {
      terms: { principal: loan.principal, rateBps: loan.rateBps, termMonths: loan.termMonths, start: BigInt(loan.start) },
      repaid: loan.repaid,
      feesPaidThrough: loan.feesPaidThrough,
    };
  };
  /** A note on the holder's wallet, its terms, regular installment and regular late fee. */
  async function heldNote() {
    const tokenId = await f.mintNoteTo(holder());
    const { terms } = await stored(tokenId);
    const installment = schedule.monthlyPayment(terms.principal, terms.rateBps, terms.termMonths);
    return { tokenId, terms, installment, fee: lateFeeOf(terms, 1, params.lateFeeBps) };
  }
  const credits = (who: { account: { address: `0x${string}` } }) => f.note.read.creditsOf([who.account.address]);

  describe("the late fee", () => {
    it("is owed by an unpaid installment from the second its grace period ends, not one second before", async () => {
      const { tokenId, terms, installment, fee } = await heldNote();
      assert.equal(fee, (installment * 500n) / 10_000n);
      const feeTime = lateFeeTime(terms, 1, params.lateFeeGracePeriod);
      assert.equal(feeTime, schedule.dueDate(terms, 1) + 15n * DAY);
      await f.networkHelpers.time.increaseTo(feeTime - 1n);
      assert.deepEqual(await f.note.read.lateFeesOf([tokenId]), [0n, 0n]);
      assert.equal(await f.note.read.amountDueNow([tokenId]), installment);
      await f.networkHelpers.time.increaseTo(feeTime);
      assert.deepEqual(await f.note.read.lateFeesOf([tokenId]), [fee, 1n]);
      assert.equal(await f.note.read.amountDueNow([tokenId]), installment + fee);
      const [, days, pastDue] = await f.note.read.pastDueOf([tokenId]);
      assert.deepEqual([days, pastDue], [16n, installment + fee]);
      const payoff = await f.note.read.payoffAmount([tokenId]);
      assert.equal(payoff, schedule.payoffAmount(terms, 0n, feeTime) + fee);
      const state = await f.note.read.noteStateOf([tokenId]);
      assert.equal(state.outstanding + state.interest, payoff, "a par order prices the fee as interest");
    });

    it("is not taken from a payment one second before its time, and is taken from one at that second", async () => {
      const early = await heldNote();
      const late = await heldNote();
      const feeTime = lateFeeTime(early.terms, 1, params.lateFeeGracePeriod);
      await pin(feeTime - 1n);
      const hash = await repay(early.tokenId, early.installment);
      await f.viem.assertions.emitWithArgs(hash, f.note, "Repaid", [
        early.tokenId,
        getAddress(f.accounts.borrower.account.address),
        getAddress(holder().account.address),
        early.installment,
        early.installment,
      ]);
      assert.equal((await stored(early.tokenId)).feesPaidThrough, 0);
      const lateTime = lateFeeTime(late.terms, 1, params.lateFeeGracePeriod);
      await pin(lateTime);
      const lateHash = await repay(late.tokenId, late.installment + late.fee);
      await f.viem.assertions.emitWithArgs(lateHash, f.note, "LateFeesPaid", [late.tokenId, getAddress(holder().account.address), late.fee, 1n]);
      await f.viem.assertions.emitWithArgs(lateHash, f.note, "Repaid", [
        late.tokenId,
        getAddress(f.accounts.borrower.account.address),
        getAddress(holder().account.address),
        late.installment + late.fee,
        late.installment,
      ]);
    });

    it("is charged once: paid, that installment owes no other, while the next owes its own from its time", async () => {
      const { tokenId, terms, installment, fee } = await heldNote();
      const feeTime = lateFeeTime(terms, 1, params.lateFeeGracePeriod);
      await pin(feeTime);
      await repay(tokenId, fee);
      assert.deepEqual([(await stored(tokenId)).repaid, (await stored(tokenId)).feesPaidThrough], [0n, 1]);
      await f.networkHelpers.time.increaseTo(feeTime + 20n * DAY);
      assert.deepEqual(await f.note.read.lateFeesOf([tokenId]), [0n, 0n], "still unpaid, its fee already paid");
      assert.equal(await f.note.read.amountDueNow([tokenId]), 2n * installment);
      const next = lateFeeTime(terms, 2, params.lateFeeGracePeriod);
      await f.networkHelpers.time.increaseTo(next);
      assert.deepEqual(await f.note.read.lateFeesOf([tokenId]), [fee, 1n]);
    });

    it("is paid before any installment, whole fees only, and a payment below the first fee is refused", async () => {
      const { tokenId, terms, installment, fee } = await heldNote();
      const at = lateFeeTime(terms, 2, params.lateFeeGracePeriod);
      await f.networkHelpers.time.increaseTo(at - 1n);
      await pin(at);
      await f.viem.assertions.revertWithCustomErrorWithArgs(repay(tokenId, fee - 1n), f.note, "PaymentBelowLateFee", [tokenId, fee]);
      const before = await f.dollar.read.balanceOf([f.accounts.borrower.account.address]);
      await pin(at);
      const hash = await repay(tokenId, fee + fee / 2n);
      await f.viem.assertions.emitWithArgs(hash, f.note, "LateFeesPaid", [tokenId, getAddress(holder().account.address), fee, 1n]);
      assert.equal(before - (await f.dollar.read.balanceOf([f.accounts.borrower.account.address])), fee, "only the whole fee it covers is taken");
      assert.deepEqual([(await stored(tokenId)).repaid, (await stored(tokenId)).feesPaidThrough], [0n, 1]);
      await repay(tokenId, fee + installment);
      assert.deepEqual([(await stored(tokenId)).repaid, (await stored(tokenId)).feesPaidThrough], [installment, 2]);
      assert.equal(await credits(holder()), 2n * fee + installment);
    });

    it("is credited to the vault's depositor while the vault holds the note", async () => {
      const { tokenId, terms, installment, fee } = await heldNote();
      await f.note.write.safeTransferFrom([holder().account.address, f.vault.address, tokenId], { account: holder().account });
      await f.networkHelpers.time.increaseTo(lateFeeTime(terms, 1, params.lateFeeGracePeriod));
      const hash = await repay(tokenId, installment + fee);
      await f.viem.assertions.emitWithArgs(hash, f.note, "LateFeesPaid", [tokenId, getAddress(holder().account.address), fee, 1n]);
      assert.equal(await credits(holder()), installment + fee);
      assert.equal(await f.note.read.creditsOf([f.vault.address]), 0n);
    });

    it("counts the last installment's own fee, and a payoff after maturity settles every fee with the schedule", async () => {
      const { tokenId, terms } = await heldNote();
      const at = lateFeeTime(terms, 12, params.lateFeeGracePeriod);
      await f.networkHelpers.time.increaseTo(at);
      const owed = lateFeesOwed(await stored(tokenId), at, params);
      assert.equal(owed.count, 12);
      assert.deepEqual(await f.note.read.lateFeesOf([tokenId]), [owed.amount, 12n]);
      const payoff = payoffWithFees(await stored(tokenId), at + 1n, params);
      assert.equal(payoff, schedule.totalDue(terms) + owed.amount);
      await pin(at + 1n);
      const hash = await repay(tokenId, payoff + 1_000n);
      await f.viem.assertions.emitWithArgs(hash, f.note, "LateFeesPaid", [tokenId, getAddress(holder().account.address), owed.amount, 12n]);
      assert.equal((await f.note.read.loanOf([tokenId])).status, 2);
      assert.equal(await credits(holder()), payoff);
      assert.deepEqual(await f.note.read.lateFeesOf([tokenId]), [0n, 0n], "a repaid loan owes nothing");
      assert.equal(await f.note.read.defaultableAt([tokenId]), 0n);
      await f.viem.assertions.revertWithCustomErrorWithArgs(f.note.read.lateFeesOf([999n]), f.note, "LoanNotFound", [999n]);
    });
  });

  describe("a cure", () => {
    it("makes the loan current at once when everything past due is paid, fees included", async () => {
      const { tokenId, terms, installment, fee } = await heldNote();
      const at = lateFeeTime(terms, 2, params.lateFeeGracePeriod) + 3n * DAY;
      await f.networkHelpers.time.increaseTo(at);
      const [, days, pastDue] = await f.note.read.pastDueOf([tokenId]);
      assert.deepEqual([days, pastDue], [49n, 2n * installment + 2n * fee]);
      await pin(at + 1n);
      await repay(tokenId, pastDue);
      assert.deepEqual(await f.note.read.pastDueOf([tokenId]), [schedule.dueDate(terms, 3), 0n, 0n]);
      assert.deepEqual(await f.note.read.lateFeesOf([tokenId]), [0n, 0n]);
      assert.equal((await f.note.read.ownershipOf([tokenId]))[2], 0n);
      assert.equal((await f.note.read.noteStateOf([tokenId])).daysPastDue, 0n);
    });

    it("is not made by paying the installments' amount alone, which first pays the fees", async () => {
      const { tokenId, terms, installment } = await heldNote();
      await f.networkHelpers.time.increaseTo(lateFeeTime(terms, 2, params.lateFeeGracePeriod));
      await repay(tokenId, 2n * installment);
      const [, days] = await f.note.read.pastDueOf([tokenId]);
      assert.ok(days > 0n, "an installment is still past due");
    });
  });

  describe("a default by days past due", () => {
    it("is refused one second before the oldest unpaid installment is defaultAfterDays past due, naming the moment, and made at it", async () => {
      const { tokenId, terms } = await heldNote();
      const moment = schedule.dueDate(terms, 1) + 90n * DAY;
      assert.equal(await f.note.read.defaultableAt([tokenId]), moment);
      assert.equal(defaultableAt(await stored(tokenId), params), moment);
      const asOriginator = { account: f.accounts.originator.account };
      await f.networkHelpers.time.increaseTo(moment - 2n);
      await pin(moment - 1n);
      await f.viem.assertions.revertWithCustomErrorWithArgs(f.note.write.markDefaulted([tokenId], asOriginator), f.note, "DefaultTooEarly", [tokenId, moment]);
      await pin(moment);
      const hash = await f.note.write.markDefaulted([tokenId], asOriginator);
      await f.viem.assertions.emitWithArgs(hash, f.note, "LoanDefaulted", [tokenId]);
      assert.equal((await f.note.read.loanOf([tokenId])).status, 3);
      assert.equal(await f.note.read.defaultableAt([tokenId]), 0n, "only an active loan has a default moment");
    });

    it("moves on with each installment paid, counting from the oldest one still unpaid", async () => {
      const { tokenId, terms, installment } = await heldNote();
      await repay(tokenId, installment);
      assert.equal(await f.note.read.defaultableAt([tokenId]), schedule.dueDate(terms, 2) + 90n * DAY);
      await repay(tokenId, installment - 1n);
      assert.equal(await f.note.read.defaultableAt([tokenId]), schedule.dueDate(terms, 2) + 90n * DAY, "a partial payment moves nothing");
    });
  });

  describe("random payment patterns", () => {
    const SEED = propertySeed(30_2026);

    it("credit every unit a borrower pays to a holder, never charge more than each installment's capped fee once, and leave a cured loan current", async () => {
      const LOANS = 6;
      const holders = [holder(), f.wallets[ROLES.firstUser + 1], f.wallets[ROLES.firstUser + 2]];
      const picked = fc.sample(
        fc
          .record({ principal: fc.bigInt({ min: 10_000_000n, max: 5_000_000_000n }), rateBps: fc.integer({ min: 0, max: 3_000 }), termMonths: fc.integer({ min: 1, max: 8 }) })
          .filter(schedule.isValidTerms),
        { numRuns: LOANS, seed: SEED },
      );
      const loans: (ServicedLoan & { tokenId: bigint; beneficiary: `0x${string}`; feesPaid: bigint; cap: bigint; open: boolean })[] = [];
      for (const [i, t] of picked.entries()) {
        const tokenId = 700n + BigInt(i);
        await f.note.write.originate([tokenId, f.accounts.borrower.account.address, t.principal, t.rateBps, t.termMonths], { account: f.accounts.originator.account });
        const owner = holders[i % holders.length];
        await f.note.write.transferFrom([f.accounts.treasury.account.address, owner.account.address, tokenId], { account: f.accounts.treasury.account });
        // Every other note of the third holder sits in the vault: its depositor is credited.
        if (i % 3 === 2) await f.note.write.safeTransferFrom([owner.account.address, f.vault.address, tokenId], { account: owner.account });
        const { terms } = await stored(tokenId);
        const cap = Array.from({ length: t.termMonths }, (_, k) => lateFeeOf(terms, k + 1, params.lateFeeBps)).reduce((a, b) => a + b, 0n);
        loans.push({ tokenId, terms, repaid: 0n, feesPaidThrough: 0, beneficiary: getAddress(owner.account.address), feesPaid: 0n, cap, open: true });
      }
      const rounds = fc.sample(
        fc.record({
          wait: fc.oneof(fc.bigInt({ min: 1n, max: 20n * DAY }), fc.bigInt({ min: 20n * DAY, max: 3n * PERIOD })),
          pays: fc.array(fc.tuple(fc.integer({ min: 0, max: 6 }), fc.double({ min: 0, max: 1, noNaN: true })), { minLength: LOANS, maxLength: LOANS }),
        }),
        { numRuns: 16, seed: SEED + 1 },
      );
      const borrower = f.accounts.borrower.account.address;
      const creditsOf = async () => Promise.all(holders.map((h) => f.note.read.creditsOf([h.account.address])));
      const reached = { fees: 0, refused: 0, cured: 0, partFees: 0 };
      for (const round of rounds) {
        await f.networkHelpers.time.increase(round.wait);
        for (const [i, loan] of loans.entries()) {
          if (!loan.open) continue;
          const [how, share] = round.pays[i];
          const at = (await f.publicClient.getBlock()).timestamp + 1n;
          const owed = lateFeesOwed(loan, at, params);
          const installment = schedule.monthlyPayment(loan.terms.principal, loan.terms.rateBps, loan.terms.termMonths);
          const payoff = payoffWithFees(loan, at, params);
          const pastDueNow = amountDueWithFees(loan, at, params);
          // Nothing, what is past due (a cure), one installment, one unit below the first fee, a random share of the
          // payoff, exactly the fees owed, or a fee and a half.
          const amount = [0n, pastDueNow, installment, owed.first > 0n ? owed.first - 1n : 0n, (payoff * BigInt(Math.floor(share * 1e6))) / 1_000_000n + 1n, owed.amount, owed.first + owed.first / 2n][
            how
          ];
          if (amount === 0n) continue;
          const split = splitRepayment(loan, amount, at, params);
          const before = { borrower: await f.dollar.read.balanceOf([borrower]), credits: await creditsOf() };
          await pin(at);
          if (!split) {
            await f.viem.assertions.revertWithCustomErrorWithArgs(repay(loan.tokenId, amount), f.note, "PaymentBelowLateFee", [loan.tokenId, owed.first]);
            reached.refused++;
            continue;
          }
          const receipt = await f.publicClient.waitForTransactionReceipt({ hash: await repay(loan.tokenId, amount) });
          const where = `loan ${loan.tokenId} paying ${amount} at ${at} ${seedHint(SEED)}`;
          const taken = before.borrower - (await f.dollar.read.balanceOf([borrower]));
          const after = await creditsOf();
          const credited = after.reduce((sum, c, k) => sum + c - before.credits[k], 0n);
          assert.equal(taken, split.fees + split.installments, where);
          assert.equal(credited, taken, `every unit paid is credited to a holder: ${where}`);
          assert.equal(
            after[holders.findIndex((h) => getAddress(h.account.address) === loan.beneficiary)] - before.credits[holders.findIndex((h) => getAddress(h.account.address) === loan.beneficiary)],
            taken,
            where,
          );
          const feeEvents = parseEventLogs({ abi: f.note.abi, logs: receipt.logs, eventName: "LateFeesPaid" });
          assert.equal(
            feeEvents.reduce((sum, e) => sum + e.args.amount, 0n),
            split.fees,
            where,
          );
          loan.repaid += split.installments;
          loan.feesPaidThrough = split.feesPaidThrough;
          loan.feesPaid += split.fees;
          assert.ok(loan.feesPaid <= loan.cap, `fees paid ${loan.feesPaid} above the cap ${loan.cap}: ${where}`);
          if (split.fees > 0n) reached.fees++;
          if (split.fees > 0n && split.feesPaidThrough < owed.through) reached.partFees++;
          loan.open = split.installments < schedule.payoffAmount(loan.terms, loan.repaid - split.installments, at);
          if (!loan.open) continue;
          const state = await f.note.read.loanOf([loan.tokenId]);
          assert.deepEqual([state.repaid, state.feesPaidThrough], [loan.repaid, loan.feesPaidThrough], where);
          const [fees, count] = await f.note.read.lateFeesOf([loan.tokenId]);
          const largest =
            lateFeeOf(loan.terms, Number(loan.terms.termMonths), params.lateFeeBps) > lateFeeOf(loan.terms, 1, params.lateFeeBps)
              ? lateFeeOf(loan.terms, Number(loan.terms.termMonths), params.lateFeeBps)
              : lateFeeOf(loan.terms, 1, params.lateFeeBps);
          assert.ok(fees <= count * largest, where);
          if (amount === pastDueNow) {
            const [, days, left] = await f.note.read.pastDueOf([loan.tokenId]);
            assert.deepEqual([days, left, fees], [0n, 0n, 0n], `a cured loan is current: ${where}`);
            reached.cured++;
          }
        }
      }
      assert.equal(
        await f.dollar.read.balanceOf([f.note.address]),
        (await creditsOf()).reduce((a, b) => a + b, 0n),
      );
      for (const [name, count] of Object.entries(reached)) assert.ok(count > 0, `no ${name} case ${seedHint(SEED)}`);
    });
  });

  describe("agree to the unit with domain/lateFees.ts", () => {
    const SEED = propertySeed(41_2026);
    const validTerms = fc
      .record({
        principal: fc.oneof(fc.bigInt({ min: schedule.MIN_PRINCIPAL, max: 10n ** 13n }), fc.bigInt({ min: schedule.MIN_PRINCIPAL, max: schedule.MAX_PRINCIPAL })),
        rateBps: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 5_000 }), fc.integer({ min: 0, max: schedule.MAX_RATE_BPS })),
        termMonths: fc.oneof(fc.integer({ min: 1, max: 24 }), fc.integer({ min: 1, max: schedule.MAX_TERM_MONTHS })),
      })
      .filter(schedule.isValidTerms);

    it("in LoanMath's fees owed, whole fees a budget covers and default moment, on 800 random loans, parameters and moments", async () => {
      const harness = await f.viem.deployContract("LoanMathHarness");
      const start = 1_700_000_000n;
      const cases = fc.sample(
        fc.record({
          t: validTerms,
          offset: fc.bigInt({ min: -2n * DAY, max: 370n * PERIOD }),
          paid: fc.nat(360),
          extra: fc.integer({ min: -1, max: 1 }),
          fpt: fc.nat(360),
          grace: fc.oneof(fc.constant(15n * DAY), fc.bigInt({ min: 0n, max: 60n * DAY })),
          bps: fc.oneof(fc.constant(500), fc.integer({ min: 0, max: 1_000 })),
          afterDays: fc.integer({ min: 30, max: 365 }),
          gracePeriod: fc.bigInt({ min: 0n, max: 365n * DAY }),
          budget: fc.double({ min: 0, max: 1.2, noNaN: true }),
        }),
        { numRuns: 800, seed: SEED },
      );
      const reached = { owing: 0, none: 0, byDays: 0, byMaturity: 0, partBudget: 0, lastFee: 0 };
      for (const c of cases) {
        const terms = { ...c.t, start };
        const n = c.t.termMonths;
        const payment = schedule.monthlyPayment(c.t.principal, c.t.rateBps, n);
        const wanted = BigInt(c.paid % n) * payment + BigInt(c.extra);
        const repaid = wanted < 0n ? 0n : wanted >= schedule.totalDue(terms) ? schedule.totalDue(terms) - 1n : wanted;
        const loan: ServicedLoan = { terms, repaid, feesPaidThrough: c.fpt % (n + 1) };
        const p: ServicingParams = { gracePeriod: c.gracePeriod, lateFeeGracePeriod: c.grace, lateFeeBps: c.bps, defaultAfterDays: c.afterDays };
        const at = start + c.offset;
        const where = `${JSON.stringify({ ...c, repaid, at }, (_, x) => (typeof x === "bigint" ? String(x) : x))} ${seedHint(SEED)}`;
        const owed = lateFeesOwed(loan, at, p);
        const args = [c.t.principal, BigInt(c.t.rateBps), BigInt(n)] as const;
        assert.deepEqual(
          await harness.read.lateFees([...args, start, repaid, BigInt(loan.feesPaidThrough), c.grace, BigInt(c.bps), at]),
          [owed.amount, BigInt(owed.from), BigInt(owed.through)],
          where,
        );
        assert.equal(await harness.read.defaultableAt([...args, start, repaid, c.gracePeriod, BigInt(c.afterDays)]), defaultableAt(loan, p), where);
        if (owed.count > 0) {
          reached.owing++;
          if (owed.through === n) reached.lastFee++;
          const budget = (owed.amount * BigInt(Math.floor(c.budget * 1e6))) / 1_000_000n;
          const covered = lateFeesWithin(terms, owed.from, owed.through, c.bps, budget);
          const left = covered.through < owed.through ? lateFeeOf(terms, covered.through + 1, c.bps) : 0n;
          assert.deepEqual(await harness.read.lateFeesWithin([...args, BigInt(owed.from), BigInt(owed.through), BigInt(c.bps), budget]), [covered.amount, BigInt(covered.through), left], where);
          if (covered.through > owed.from && covered.through < owed.through) reached.partBudget++;
        } else reached.none++;
        if (defaultableAt(loan, p) < schedule.maturityDefaultAt(terms, c.gracePeriod)) reached.byDays++;
        else reached.byMaturity++;
      }
      for (const [name, count] of Object.entries(reached)) assert.ok(count > 0, `no ${name} case ${seedHint(SEED)}`);
    });

    it("holds the largest valid loan's total due, the most `repaid` can reach, below 2^64, so repaid fits its packed uint64", async () => {
      const harness = await f.viem.deployContract("LoanMathHarness");
      for (const termMonths of [schedule.MAX_TERM_MONTHS, 120, 12]) {
        const [, total] = await harness.read.views([schedule.MAX_PRINCIPAL, BigInt(schedule.MAX_RATE_BPS), BigInt(termMonths), 0n, 0n, 0n]);
        assert.ok(total < 31n * schedule.MAX_PRINCIPAL, `${termMonths} months: ${total}`);
        assert.ok(total < 2n ** 61n);
      }
    });
  });
});
