import assert from "node:assert/strict";
import { before, beforeEach, describe, it } from "node:test";
import { getAddress } from "viem";
import { defaultableAt, lateFeeOf, lateFeeTime, lateFeesOwed, payoffWithFees, type ServicedLoan } from "#domain/lateFees";
import * as schedule from "#domain/schedule";
import { DEFAULT_TERMS, ROLES, SERVICING_PARAMS, deployLoanNoteFixture, type LoanNoteFixture } from "./fixtures";
import { DAY, fund } from "./helpers";

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
      await f.viem.assertions.emitWithArgs(hash, f.note, "Repaid", [early.tokenId, getAddress(f.accounts.borrower.account.address), getAddress(holder().account.address), early.installment, early.installment]);
      assert.equal((await stored(early.tokenId)).feesPaidThrough, 0);
      const lateTime = lateFeeTime(late.terms, 1, params.lateFeeGracePeriod);
      await pin(lateTime);
      const lateHash = await repay(late.tokenId, late.installment + late.fee);
      await f.viem.assertions.emitWithArgs(lateHash, f.note, "LateFeesPaid", [late.tokenId, getAddress(holder().account.address), late.fee, 1n]);
      await f.viem.assertions.emitWithArgs(lateHash, f.note, "Repaid", [late.tokenId, getAddress(f.accounts.borrower.account.address), getAddress(holder().account.address), late.installment + late.fee, late.installment]);
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
});
