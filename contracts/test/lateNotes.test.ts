import assert from "node:assert/strict";
import { before, beforeEach, describe, it } from "node:test";
import fc from "fast-check";
import { getAddress, maxUint256, zeroAddress, type Hex } from "viem";
import { parPrice } from "#domain/orders";
import { amountDueWithFees, lateFeeOf, lateFeesOwed, pastDueWithFees, payoffSplitWithFees, payoffWithFees, splitRepayment, type ServicedLoan } from "#domain/lateFees";
import * as schedule from "#domain/schedule";
import { pastDue, payoffSplit } from "#domain/servicing";
import { DEFAULTS } from "../params";
import { DEFAULT_TERMS, SERVICING_PARAMS, type LoanNoteFixture } from "./fixtures";
import { DAY, PERIOD, fund, propertySeed, seedHint } from "./helpers";
import { addressOf, deployOrderFixture, parPriceOf, signListing, signMatchingOffer, signOffer, type OrderFixture } from "./orders";

const P = DEFAULT_TERMS.principal;
const fee = (price: bigint) => (price * BigInt(DEFAULTS.feeBps)) / 10_000n;

/** A late note is never sold as a current one, and 100% of par is exactly what settles a note at the fill. */
describe("late notes", () => {
  let o: OrderFixture;
  let f: LoanNoteFixture;

  before(async () => {
    o = await deployOrderFixture();
    f = o.f;
  });
  beforeEach(async () => o.restore());

  const seller = () => o.seller;
  const buyer = () => o.buyer;
  const refused: OrderFixture["refused"] = (...args) => o.refused(...args);
  const balance: OrderFixture["balance"] = (w) => o.balance(w);
  const latest = async () => (await f.publicClient.getBlock()).timestamp;
  const termsOf = async (tokenId: bigint): Promise<schedule.LoanTerms> => {
    const loan = await f.note.read.loanOf([tokenId]);
    return { principal: loan.principal, rateBps: loan.rateBps, termMonths: loan.termMonths, start: BigInt(loan.start) };
  };
  /** Mines nothing: the next transaction's block will be at `at`. */
  const pin = (at: bigint) => f.networkHelpers.time.setNextBlockTimestamp(at);

  describe("the borrower's escape from interest through the treasury's standing par listing", () => {
    /** The note in the treasury, its 100%-of-par listing valid to maturity plus grace, and a borrower ready to buy. */
    async function standingListing() {
      const { treasury, borrower } = f.accounts;
      const tokenId = await f.mintNoteTo(treasury);
      const terms = await termsOf(tokenId);
      const expiry = schedule.maturityDefaultAt(terms, await f.note.read.gracePeriod());
      const listing = await signListing(f, treasury, { tokenId, parBps: 10_000n, expiry });
      await fund(f, borrower, 0n, f.marketplace.address);
      const fill = () => f.marketplace.write.fillListing([listing.order, listing.signature, maxUint256], { account: borrower.account });
      return { tokenId, terms, listing, fill };
    }

    it("refuses the borrower who paid nothing once an installment is past due, up to the grace period after maturity", async () => {
      const { tokenId, terms, listing, fill } = await standingListing();
      const maturity = schedule.maturity(terms);
      for (const at of [schedule.dueDate(terms, 1), schedule.dueDate(terms, 6) + 12n * 3_600n, maturity + DEFAULTS.gracePeriodSeconds / 2n, listing.order.expiry]) {
        await f.networkHelpers.time.increaseTo(at - 1n);
        const { daysPastDue } = pastDue(terms, 0n, at);
        assert.ok(daysPastDue > 0);
        await pin(at);
        await refused(fill(), "NoteLate", [tokenId, BigInt(daysPastDue)]);
      }
      assert.equal(await f.note.read.ownerOf([tokenId]), getAddress(f.accounts.treasury.account.address));
    });

    it("sells a current note to its borrower for exactly its payoff in that block, so buying it first saves the borrower nothing", async () => {
      const { treasury, borrower } = f.accounts;
      const { tokenId, terms, fill } = await standingListing();
      const at = terms.start + 14n * DAY + 5n * 3_600n; // mid-first-period
      await f.networkHelpers.time.increaseTo(at - 1n);
      const before = { borrower: await balance(borrower), treasury: await balance(treasury) };
      await pin(at);
      await fill();
      // Read in the fill's own block: the price is what would have settled the note there and then.
      const payoff = await f.note.read.payoffAmount([tokenId]);
      assert.equal(await latest(), at);
      assert.equal(payoff, schedule.payoffAmount(terms, 0n, at));
      assert.ok(payoff > P, "the accrued interest is part of the price");
      const price = before.borrower - (await balance(borrower));
      assert.equal(price, payoff);
      assert.equal((await balance(treasury)) - before.treasury, payoff - fee(payoff), "the seller gets 100% of the payoff, less the fee");
      // Paying off the note they now hold, the same day, costs the same payoff again and credits it back to them:
      // the trade bought the borrower nothing a plain payoff would not have.
      await pin(at + 1n);
      await f.note.write.repay([tokenId, maxUint256], { account: borrower.account });
      assert.equal(await f.note.read.creditsOf([borrower.account.address]), payoff);
      await f.note.write.withdrawCredits({ account: borrower.account });
      assert.equal(before.borrower - (await balance(borrower)), payoff);
      assert.equal((await f.note.read.loanOf([tokenId])).status, 2);
    });

    it("sells the note to its borrower after they paid what was past due, for exactly its payoff in that block", async () => {
      const { borrower } = f.accounts;
      const { tokenId, terms, fill } = await standingListing();
      const late = schedule.dueDate(terms, 1) + 3n * DAY;
      await f.networkHelpers.time.increaseTo(late);
      await pin(late + 1n);
      await refused(fill(), "NoteLate", [tokenId, 4n]);
      const [, , amountPastDue] = await f.note.read.pastDueOf([tokenId]);
      assert.equal(amountPastDue, schedule.monthlyPayment(terms.principal, terms.rateBps, terms.termMonths));
      await pin(late + 1n);
      await o.repay(tokenId, amountPastDue);
      assert.deepEqual(await f.note.read.pastDueOf([tokenId]), [schedule.dueDate(terms, 2), 0n, 0n]);
      const before = await balance(borrower);
      await pin(late + 2n);
      await fill();
      const payoff = await f.note.read.payoffAmount([tokenId]);
      assert.equal(payoff, schedule.payoffAmount(terms, amountPastDue, late + 2n));
      assert.equal(before - (await balance(borrower)), payoff);
      assert.equal(await f.note.read.ownerOf([tokenId]), getAddress(borrower.account.address));
    });
  });

  describe("a matured, unpaid note", () => {
    async function matured() {
      const tokenId = await f.mintNoteTo(seller());
      const terms = await termsOf(tokenId);
      const at = schedule.maturity(terms) + DAY;
      await f.networkHelpers.time.increaseTo(at - 1n);
      return { tokenId, terms, at };
    }

    it("is not sold into a matching offer open to every term left, even none, signed for current notes only", async () => {
      const { tokenId, terms, at } = await matured();
      const offer = await signMatchingOffer(f, buyer(), { parBps: 10_000n, minTermLeft: 0n, maxTermLeft: maxUint256, maxDaysPastDue: 0n });
      const { daysPastDue } = pastDue(terms, 0n, at);
      assert.equal(daysPastDue, 11 * 30 + 1 + 1); // the first installment fell due eleven months and a day ago
      await pin(at);
      await refused(f.marketplace.write.acceptMatchingOffer([offer.order, offer.signature, tokenId, 0n], { account: seller().account }), "NoteLate", [tokenId, BigInt(daysPastDue)]);
      assert.equal(await f.note.read.ownerOf([tokenId]), addressOf(seller()));
    });

    it("is sold into a matching offer whose signer accepts that many days past due, for everything it owes", async () => {
      const { tokenId, terms, at } = await matured();
      const offer = await signMatchingOffer(f, buyer(), { parBps: 10_000n, maxDaysPastDue: 400n });
      const before = await balance(buyer());
      await pin(at);
      await f.marketplace.write.acceptMatchingOffer([offer.order, offer.signature, tokenId, 0n], { account: seller().account });
      assert.equal(await f.note.read.ownerOf([tokenId]), addressOf(buyer()));
      // Past maturity what settles the note is every installment (the principal and all the interest) and the late
      // fees owed by then: those of the eleven installments past their fee's grace period.
      const fees = lateFeesOwed({ terms, repaid: 0n, feesPaidThrough: 0 }, at, SERVICING_PARAMS);
      assert.equal(fees.count, 11);
      assert.equal(before - (await balance(buyer())), schedule.totalDue(terms) + fees.amount);
      assert.equal(await f.note.read.payoffAmount([tokenId]), schedule.totalDue(terms) + fees.amount);
    });
  });

  describe("the boundary of lateness, for every way a note is sold", () => {
    type Way = { name: string; fill: (maxDaysPastDue: bigint) => Promise<Hex> };

    /**
     * A note on the seller, and each way of selling it signed (or listed) now, for current notes only and for one
     * day late; `fill(max)` sells it by the order signed with that `maxDaysPastDue`.
     */
    async function everyWay() {
      const tokenId = await f.mintNoteTo(seller());
      const terms = await termsOf(tokenId);
      const s = { account: seller().account };
      const b = { account: buyer().account };
      const signed = async (max: bigint) => ({
        fixedListing: await signListing(f, seller(), { tokenId, price: P, maxDaysPastDue: max }),
        parListing: await signListing(f, seller(), { tokenId, parBps: 9_900n, maxDaysPastDue: max }),
        fixedOffer: await signOffer(f, buyer(), { tokenId, price: P, maxDaysPastDue: max }),
        parOffer: await signOffer(f, buyer(), { tokenId, parBps: 9_800n, maxDaysPastDue: max }),
        matching: await signMatchingOffer(f, buyer(), { parBps: 9_700n, maxDaysPastDue: max }),
      });
      const orders = new Map([
        [0n, await signed(0n)],
        [1n, await signed(1n)],
      ]);
      const of = (max: bigint) => orders.get(max)!;
      await f.marketplace.write.list([tokenId, P], s);
      const ways: Way[] = [
        { name: "fixed-price listing", fill: (max) => f.marketplace.write.fillListing([of(max).fixedListing.order, of(max).fixedListing.signature, P], b) },
        { name: "fixed-price offer", fill: (max) => f.marketplace.write.acceptOffer([of(max).fixedOffer.order, of(max).fixedOffer.signature, 0n], s) },
        { name: "par listing", fill: (max) => f.marketplace.write.fillListing([of(max).parListing.order, of(max).parListing.signature, maxUint256], b) },
        { name: "par offer", fill: (max) => f.marketplace.write.acceptOffer([of(max).parOffer.order, of(max).parOffer.signature, 0n], s) },
        { name: "matching offer", fill: (max) => f.marketplace.write.acceptMatchingOffer([of(max).matching.order, of(max).matching.signature, tokenId, 0n], s) },
        // A plain listing says nothing of lateness: it sells current notes only.
        { name: "plain listing (buy)", fill: () => f.marketplace.write.buy([tokenId, P], b) },
      ];
      return { tokenId, terms, ways, of, firstDue: schedule.dueDate(terms, 1) };
    }

    it("counts a note current to the second before its first due date, one day past due from that second, one more each whole day", async () => {
      const { tokenId, terms, firstDue } = await everyWay();
      const installment = schedule.monthlyPayment(terms.principal, terms.rateBps, terms.termMonths);
      const points: [bigint, bigint, bigint][] = [
        [firstDue - 1n, 0n, 0n],
        [firstDue, 1n, installment],
        [firstDue + DAY - 1n, 1n, installment],
        [firstDue + DAY, 2n, installment],
        // Past the first installment's late-fee time: its fee is past due with the two installments.
        [schedule.dueDate(terms, 2), 31n, 2n * installment + lateFeeOf(terms, 1, SERVICING_PARAMS.lateFeeBps)],
      ];
      const loan: ServicedLoan = { terms, repaid: 0n, feesPaidThrough: 0 };
      for (const [at, days, amount] of points) {
        await f.networkHelpers.time.increaseTo(at);
        assert.equal(await latest(), at);
        assert.deepEqual(await f.note.read.pastDueOf([tokenId]), [firstDue, days, amount], `at due date + ${at - firstDue} s`);
        assert.deepEqual(await f.note.read.ownershipOf([tokenId]), [addressOf(seller()), (await f.note.read.loanOf([tokenId])).changes, days]);
        const state = await f.note.read.noteStateOf([tokenId]);
        assert.equal(state.daysPastDue, days);
        const split = payoffSplitWithFees(loan, at, SERVICING_PARAMS);
        assert.deepEqual([state.outstanding, state.interest], [split.principal, split.interest]);
        assert.equal(amountDueWithFees(loan, at, SERVICING_PARAMS), amount);
      }
    });

    it("fills every way of selling, signed for current notes only, at the second before the first due date", async () => {
      const { tokenId, ways, firstDue } = await everyWay();
      await f.networkHelpers.time.increaseTo(firstDue - 2n);
      for (const way of ways) {
        const snapshot = await f.networkHelpers.takeSnapshot();
        await pin(firstDue - 1n);
        await way.fill(0n);
        assert.notEqual(await f.note.read.ownerOf([tokenId]), addressOf(seller()), way.name);
        await snapshot.restore();
      }
    });

    it("refuses every way signed for current notes only from the due date's own second (NoteLate, one day), and fills those signed for a day late", async () => {
      const { tokenId, ways, firstDue } = await everyWay();
      await f.networkHelpers.time.increaseTo(firstDue - 1n);
      for (const way of ways) {
        const snapshot = await f.networkHelpers.takeSnapshot();
        await pin(firstDue);
        await refused(way.fill(0n), "NoteLate", [tokenId, 1n]);
        if (way.name.startsWith("plain")) {
          await snapshot.restore();
          continue;
        }
        await pin(firstDue);
        await way.fill(1n);
        assert.equal(await latest(), firstDue, way.name);
        assert.notEqual(await f.note.read.ownerOf([tokenId]), addressOf(seller()), way.name);
        await snapshot.restore();
      }
    });

    it("refuses an order signed for one day late on the second day past due", async () => {
      const { tokenId, ways, firstDue } = await everyWay();
      await f.networkHelpers.time.increaseTo(firstDue + DAY - 1n);
      for (const way of ways.filter((w) => !w.name.startsWith("plain"))) {
        const snapshot = await f.networkHelpers.takeSnapshot();
        await pin(firstDue + DAY);
        await refused(way.fill(1n), "NoteLate", [tokenId, 2n]);
        await snapshot.restore();
      }
    });

    it("fills the same signed par orders again once the borrower pays exactly what is past due, while the fixed-price ones died with the payment", async () => {
      const { tokenId, terms, ways, firstDue, of } = await everyWay();
      const late = firstDue + 2n * DAY;
      await f.networkHelpers.time.increaseTo(late);
      for (const way of ways) {
        await pin((await latest()) + 1n);
        await refused(way.fill(0n), "NoteLate", [tokenId, 3n]);
      }
      // The cure: exactly the amount past due, nothing more.
      const [, , amountPastDue] = await f.note.read.pastDueOf([tokenId]);
      await o.repay(tokenId, amountPastDue);
      assert.deepEqual(await f.note.read.pastDueOf([tokenId]), [schedule.dueDate(terms, 2), 0n, 0n]);
      const byName = new Map(ways.map((w) => [w.name, w]));
      for (const name of ["par listing", "par offer", "matching offer"]) {
        const snapshot = await f.networkHelpers.takeSnapshot();
        const bps = { "par listing": 9_900n, "par offer": 9_800n, "matching offer": 9_700n }[name]!;
        const at = (await latest()) + 1n;
        const expected = parPrice(payoffSplit(terms, amountPastDue, at), bps);
        const before = await balance(buyer());
        await pin(at);
        await byName.get(name)!.fill(0n);
        assert.equal(before - (await balance(buyer())), expected, name);
        assert.equal(expected, await parPriceOf(f, tokenId, bps), name);
        await snapshot.restore();
      }
      // A fixed price, and the plain listing, were for the note before the payment: that state is gone.
      await refused(byName.get("fixed-price listing")!.fill(0n), "OrderStale", [of(0n).fixedListing.hash]);
      await refused(byName.get("fixed-price offer")!.fill(0n), "OrderStale", [of(0n).fixedOffer.hash]);
      await refused(byName.get("plain listing (buy)")!.fill(0n), "ListingStale", [tokenId]);
    });
  });

  describe("the note's views of where it stands", () => {
    it("read zero days once repaid, none for an unknown id, and no price on a defaulted note while still counting its days", async () => {
      const tokenId = await f.mintNoteTo(seller());
      const terms = await termsOf(tokenId);
      await f.viem.assertions.revertWithCustomErrorWithArgs(f.note.read.pastDueOf([999n]), f.note, "LoanNotFound", [999n]);
      assert.deepEqual(await f.note.read.ownershipOf([999n]), [zeroAddress, 0, 0n]);
      const unknown = await f.note.read.noteStateOf([999n]);
      assert.deepEqual([unknown.owner, unknown.status, unknown.outstanding, unknown.interest, unknown.daysPastDue], [zeroAddress, 0, 0n, 0n, 0n]);

      await f.networkHelpers.time.increaseTo(schedule.maturityDefaultAt(terms, DEFAULTS.gracePeriodSeconds));
      await f.note.write.markDefaulted([tokenId], { account: f.accounts.originator.account });
      const at = await latest();
      const days = BigInt(pastDue(terms, 0n, at).daysPastDue);
      const defaulted = await f.note.read.noteStateOf([tokenId]);
      assert.deepEqual([defaulted.status, defaulted.outstanding, defaulted.interest, defaulted.daysPastDue], [3, 0n, 0n, days]);
      const fees = lateFeesOwed({ terms, repaid: 0n, feesPaidThrough: 0 }, at, SERVICING_PARAMS).amount;
      assert.deepEqual(await f.note.read.pastDueOf([tokenId]), [schedule.dueDate(terms, 1), days, schedule.totalDue(terms) + fees]);
      assert.equal((await f.note.read.ownershipOf([tokenId]))[2], days);

      await o.repay(tokenId, maxUint256);
      assert.deepEqual(await f.note.read.pastDueOf([tokenId]), [0n, 0n, 0n]);
      // Moved to the seller, defaulted, repaid and burned.
      assert.deepEqual(await f.note.read.ownershipOf([tokenId]), [zeroAddress, 4, 0n]);
      const repaid = await f.note.read.noteStateOf([tokenId]);
      assert.deepEqual([repaid.owner, repaid.status, repaid.outstanding, repaid.interest, repaid.daysPastDue], [zeroAddress, 2, 0n, 0n, 0n]);
    });
  });

  describe("agree to the unit with domain/servicing.ts", () => {
    const SEED = propertySeed(20_261_207);
    const validTerms = fc
      .record({
        principal: fc.oneof(fc.bigInt({ min: schedule.MIN_PRINCIPAL, max: 10n ** 13n }), fc.bigInt({ min: schedule.MIN_PRINCIPAL, max: schedule.MAX_PRINCIPAL })),
        rateBps: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 5_000 }), fc.integer({ min: 0, max: schedule.MAX_RATE_BPS })),
        termMonths: fc.oneof(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: schedule.MAX_TERM_MONTHS })),
      })
      .filter(schedule.isValidTerms);
    const show = (v: unknown) => JSON.stringify(v, (_, x) => (typeof x === "bigint" ? String(x) : x));

    it("in LoanMath's pastDue, amountDue and payoffSplit on 1,500 random loans, amounts repaid and moments", async () => {
      const harness = await f.viem.deployContract("LoanMathHarness");
      const start = 1_700_000_000n;
      // Amounts repaid: a share of what settles the loan then, or around an exact number of installments (the
      // boundaries of `covered`, of the due date and of the one-walk path), never as much as settles it.
      const cases = fc.sample(fc.tuple(validTerms, fc.bigInt({ min: -2n * DAY, max: 400n * PERIOD }), fc.integer({ min: 0, max: 3 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.nat(360)), {
        numRuns: 1_500,
        seed: SEED,
      });
      const reached = { late: 0, current: 0, paidAhead: 0, principalCapped: 0, beforeStart: 0 };
      for (const [t, offset, mode, share, k] of cases) {
        const terms = { ...t, start };
        const at = start + offset;
        const settles = schedule.settlementValue(terms, at);
        const payment = schedule.monthlyPayment(t.principal, t.rateBps, t.termMonths);
        const installments = (BigInt(k) % BigInt(t.termMonths)) * payment;
        const wanted = mode === 0 ? (settles * BigInt(Math.floor(share * 1e6))) / 1_000_000n : installments + BigInt(mode - 2); // k·A - 1, k·A, k·A + 1
        const repaid = wanted < 0n ? 0n : wanted >= settles ? settles - 1n : wanted;
        const due = pastDue(terms, repaid, at);
        const split = payoffSplit(terms, repaid, at);
        const got = await harness.read.servicing([t.principal, BigInt(t.rateBps), BigInt(t.termMonths), start, repaid, at]);
        assert.deepEqual(got, [due.dueDate, BigInt(due.daysPastDue), due.amountPastDue, split.principal, split.interest], `${show({ ...terms, repaid, at })} ${seedHint(SEED)}`);
        assert.equal(split.principal + split.interest, schedule.payoffAmount(terms, repaid, at));
        if (due.daysPastDue > 0) reached.late++;
        else reached.current++;
        if (repaid > 0n && schedule.nextDueDate(terms, repaid) > schedule.dueDate(terms, (offset < 0n ? 0n : offset / PERIOD) + 1n)) reached.paidAhead++;
        if (split.principal < schedule.outstandingBalance(terms, repaid)) reached.principalCapped++;
        if (offset < 0n) reached.beforeStart++;
      }
      for (const [name, count] of Object.entries(reached)) assert.ok(count > 0, `no ${name} case ${seedHint(SEED)}`);
    });

    it("in LoanNote's pastDueOf, noteStateOf and lateFeesOf on random loans through random repayments and months missed, their parts adding up to payoffAmount", async () => {
      const LOANS = 24;
      const { borrower, originator, treasury } = f.accounts;
      const picked = fc.sample(
        validTerms.filter((t) => t.principal <= 10n ** 12n),
        { numRuns: LOANS, seed: SEED },
      );
      await f.dollar.write.mint([treasury.account.address, picked.reduce((sum, t) => sum + t.principal, 0n)]);
      const loans: (ServicedLoan & { tokenId: bigint; repaidOff: boolean })[] = [];
      for (const [i, t] of picked.entries()) {
        const tokenId = 5_000n + BigInt(i);
        await f.note.write.originate([tokenId, borrower.account.address, t.principal, t.rateBps, t.termMonths], { account: originator.account });
        loans.push({ tokenId, terms: { ...t, start: BigInt((await f.note.read.loanOf([tokenId])).start) }, repaid: 0n, feesPaidThrough: 0, repaidOff: false });
      }
      await fund(f, borrower, 10n ** 15n, f.note.address);
      // Each round: some time passes (a few days, or whole months missed), then each loan gets nothing, exactly what
      // is past due, one installment, or a random part of its payoff.
      const rounds = fc.sample(
        fc.record({
          wait: fc.oneof(fc.bigInt({ min: 1n, max: 5n * DAY }), fc.bigInt({ min: PERIOD, max: 4n * PERIOD })),
          pays: fc.array(fc.tuple(fc.integer({ min: 0, max: 4 }), fc.double({ min: 0, max: 1, noNaN: true })), { minLength: LOANS, maxLength: LOANS }),
        }),
        { numRuns: 10, seed: SEED + 1 },
      );
      let compared = 0;
      let late = 0;
      let withFees = 0;
      for (const round of rounds) {
        await f.networkHelpers.time.increase(round.wait);
        for (const [i, loan] of loans.entries()) {
          if (loan.repaidOff) continue;
          const [how, share] = round.pays[i];
          const at = (await latest()) + 1n;
          const owed = payoffWithFees(loan, at, SERVICING_PARAMS);
          const installment = schedule.monthlyPayment(loan.terms.principal, loan.terms.rateBps, loan.terms.termMonths);
          const amount = [0n, amountDueWithFees(loan, at, SERVICING_PARAMS), installment, (owed * BigInt(Math.floor(share * 1e6))) / 1_000_000n, 0n][how];
          if (amount === 0n) continue;
          const split = splitRepayment(loan, amount, at, SERVICING_PARAMS);
          await pin(at);
          if (!split) {
            await f.viem.assertions.revertWithCustomError(o.repay(loan.tokenId, amount), f.note, "PaymentBelowLateFee");
            continue;
          }
          await o.repay(loan.tokenId, amount);
          loan.repaid += split.installments;
          loan.feesPaidThrough = split.feesPaidThrough;
          loan.repaidOff = split.fees + split.installments === owed;
          const stored = await f.note.read.loanOf([loan.tokenId]);
          assert.deepEqual([stored.repaid, stored.feesPaidThrough], [loan.repaid, loan.feesPaidThrough], `${show({ ...loan.terms, amount, at })} ${seedHint(SEED)}`);
        }
        const at = await latest();
        for (const loan of loans) {
          if (loan.repaidOff) continue;
          const due = pastDueWithFees(loan, at, SERVICING_PARAMS);
          const split = payoffSplitWithFees(loan, at, SERVICING_PARAMS);
          const fees = lateFeesOwed(loan, at, SERVICING_PARAMS);
          const where = `${show({ ...loan.terms, repaid: loan.repaid, feesPaidThrough: loan.feesPaidThrough, at })} ${seedHint(SEED)}`;
          assert.deepEqual(await f.note.read.pastDueOf([loan.tokenId]), [due.dueDate, BigInt(due.daysPastDue), due.amountPastDue], where);
          assert.deepEqual(await f.note.read.lateFeesOf([loan.tokenId]), [fees.amount, BigInt(fees.count)], where);
          if (fees.count > 0) withFees++;
          const state = await f.note.read.noteStateOf([loan.tokenId]);
          assert.deepEqual([state.outstanding, state.interest, state.daysPastDue], [split.principal, split.interest, BigInt(due.daysPastDue)], where);
          assert.equal(state.outstanding + state.interest, await f.note.read.payoffAmount([loan.tokenId]), where);
          assert.equal((await f.note.read.ownershipOf([loan.tokenId]))[2], BigInt(due.daysPastDue), where);
          compared++;
          if (due.daysPastDue > 0) late++;
        }
      }
      assert.ok(compared > 100 && late > 10 && late < compared - 10 && withFees > 10, `compared ${compared}, of them late ${late}, owing fees ${withFees} ${seedHint(SEED)}`);
    });
  });
});
