import assert from "node:assert/strict";
import { before, beforeEach, describe, it } from "node:test";
import fc from "fast-check";
import { parPrice } from "#domain/orders";
import { lateFeesOwed, payoffSplitWithFees, payoffWithFees } from "#domain/lateFees";
import * as schedule from "#domain/schedule";
import { pastDue } from "#domain/servicing";
import { DEFAULTS } from "../params";
import { DEFAULT_TERMS, SERVICING_PARAMS, type LoanNoteFixture } from "./fixtures";
import { DAY, PERIOD, now } from "./helpers";
import { addressOf, deployOrderFixture, signListing, signMatchingOffer, signOffer, type OrderFixture } from "./orders";

const P = DEFAULT_TERMS.principal;

describe("signed orders fill only at a note state their signer accepted", () => {
  let o: OrderFixture;
  let f: LoanNoteFixture;

  before(async () => {
    o = await deployOrderFixture();
    f = o.f;
  });
  beforeEach(async () => o.restore());

  const seller = () => o.seller;
  const buyer = () => o.buyer;
  const other = () => o.other;
  const addr = addressOf;
  const refused: OrderFixture["refused"] = (...args) => o.refused(...args);
  const repay: OrderFixture["repay"] = (...args) => o.repay(...args);
  const termsOf = async (tokenId: bigint): Promise<schedule.LoanTerms> => {
    const loan = await f.note.read.loanOf([tokenId]);
    return { principal: loan.principal, rateBps: loan.rateBps, termMonths: loan.termMonths, start: BigInt(loan.start) };
  };

  describe("as an attacker meets them", () => {
    it("a seller who moves the note after signing leaves both listings unfillable, from either wallet", async () => {
      const tokenId = await f.mintNoteTo(seller());
      const fixed = await signListing(f, seller(), { tokenId, price: P });
      const par = await signListing(f, seller(), { tokenId, parBps: 9_000n });
      await f.note.write.transferFrom([addr(seller()), addr(other()), tokenId], { account: seller().account });
      await refused(f.marketplace.write.fillListing([fixed.order, fixed.signature, P], { account: buyer().account }), "OrderStale", [fixed.hash]);
      await refused(f.marketplace.write.fillListing([par.order, par.signature, P], { account: buyer().account }), "OrderStale", [par.hash]);
      // The vault is a move too: while the note is deposited nobody can fill the seller's listing.
      await f.note.write.safeTransferFrom([addr(other()), f.vault.address, tokenId], { account: other().account });
      await refused(f.marketplace.write.fillListing([par.order, par.signature, P], { account: buyer().account }), "OrderStale", [par.hash]);
    });

    it("a repayment sent before a buyer's fill kills a fixed-price listing and reprices a par one to exactly what settles the note", async () => {
      const tokenId = await f.mintNoteTo(seller());
      const fixed = await signListing(f, seller(), { tokenId, price: P });
      const par = await signListing(f, seller(), { tokenId, parBps: 10_000n });
      await repay(tokenId, 100_000_000n); // the front-run: principal falls, the seller is credited
      await refused(f.marketplace.write.fillListing([fixed.order, fixed.signature, P], { account: buyer().account }), "OrderStale", [fixed.hash]);
      // Paid ahead, the note's scheduled principal carries a full period's interest that a payoff does not charge:
      // 100% of par is the payoff, below the outstanding principal.
      const at = (await now(f)) + 1n;
      const payoff = schedule.payoffAmount(await termsOf(tokenId), 100_000_000n, at);
      assert.ok(payoff < (await f.note.read.outstandingBalance([tokenId])));
      const before = await f.dollar.read.balanceOf([buyer().account.address]);
      await f.networkHelpers.time.setNextBlockTimestamp(at);
      await f.marketplace.write.fillListing([par.order, par.signature, P], { account: buyer().account });
      assert.equal(before - (await f.dollar.read.balanceOf([buyer().account.address])), payoff);
      assert.equal(await f.note.read.payoffAmount([tokenId]), payoff);
      assert.ok(payoff < P);
    });

    it("a holder cannot accept an offer of any kind for a note they do not hold", async () => {
      const tokenId = await f.mintNoteTo(seller());
      const fixed = await signOffer(f, buyer(), { tokenId, price: P });
      const par = await signOffer(f, buyer(), { tokenId, parBps: 9_000n });
      const matching = await signMatchingOffer(f, buyer(), { parBps: 9_000n });
      const asOther = { account: other().account };
      const notHolder = [tokenId, addr(other())];
      await refused(f.marketplace.write.acceptOffer([fixed.order, fixed.signature, 0n], asOther), "NotNoteHolder", notHolder);
      await refused(f.marketplace.write.acceptOffer([par.order, par.signature, 0n], asOther), "NotNoteHolder", notHolder);
      await refused(f.marketplace.write.acceptMatchingOffer([matching.order, matching.signature, tokenId, 0n], asOther), "NotNoteHolder", notHolder);
    });

    it("an offer fixed to a note state dies with a repayment, and every par order with a default", async () => {
      const tokenId = await f.mintNoteTo(seller());
      const fixed = await signOffer(f, buyer(), { tokenId, price: P });
      await repay(tokenId, 1n);
      await refused(f.marketplace.write.acceptOffer([fixed.order, fixed.signature, 0n], { account: seller().account }), "OrderStale", [fixed.hash]);

      const par = await signListing(f, seller(), { tokenId, parBps: 9_000n });
      const parOffer = await signOffer(f, buyer(), { tokenId, parBps: 9_000n });
      const matching = await signMatchingOffer(f, buyer(), { parBps: 9_000n });
      await f.networkHelpers.time.increase(12n * PERIOD + DEFAULTS.gracePeriodSeconds);
      await f.note.write.markDefaulted([tokenId], { account: f.accounts.originator.account });
      await refused(f.marketplace.write.fillListing([par.order, par.signature, P], { account: buyer().account }), "OrderStale", [par.hash]);
      await refused(f.marketplace.write.acceptOffer([parOffer.order, parOffer.signature, 0n], { account: seller().account }), "OrderStale", [parOffer.hash]);
      await refused(f.marketplace.write.acceptMatchingOffer([matching.order, matching.signature, tokenId, 0n], { account: seller().account }), "NoteNotMatching", [matching.hash, tokenId]);
    });
  });

  describe("a matching offer", () => {
    it("refuses a note just outside each signed range and fills one on every bound", async () => {
      const tokenId = await f.mintNoteTo(seller());
      const termLeft = async () => schedule.maturity(await termsOf(tokenId)) - ((await now(f)) + 1n);
      const edges = async () => {
        const left = await termLeft();
        return { minRateBps: 1_200n, maxRateBps: 1_200n, minTermLeft: left - 10n, maxTermLeft: left + 10n, minOutstanding: P, maxOutstanding: P };
      };
      const outside = [
        { minRateBps: 1_201n },
        { maxRateBps: 1_199n },
        { minTermLeft: (await termLeft()) + 20n },
        { maxTermLeft: (await termLeft()) - 20n },
        { minOutstanding: P + 1n },
        { maxOutstanding: P - 1n },
      ];
      for (const range of outside) {
        const offer = await signMatchingOffer(f, buyer(), { ...(await edges()), ...range });
        await refused(f.marketplace.write.acceptMatchingOffer([offer.order, offer.signature, tokenId, 0n], { account: seller().account }), "NoteNotMatching", [offer.hash, tokenId]);
      }
      const onBounds = await signMatchingOffer(f, buyer(), await edges());
      await f.marketplace.write.acceptMatchingOffer([onBounds.order, onBounds.signature, tokenId, P], { account: seller().account });
      assert.equal(await f.note.read.ownerOf([tokenId]), addr(buyer()));
    });

    it("counts no time left for an active note past its maturity, and sells other-term notes only into their range", async () => {
      const due = await f.mintNoteTo(seller());
      const long = 1_000n;
      await f.note.write.originate([long, f.accounts.borrower.account.address, P, 1_500, 36], { account: f.accounts.originator.account });
      await f.note.write.transferFrom([f.accounts.treasury.account.address, addr(seller()), long], { account: f.accounts.treasury.account });
      await f.networkHelpers.time.increase(12n * PERIOD + DAY);
      // An active note past its maturity is unpaid, so late: an offer for such notes says it takes late ones.
      const [, daysLate] = await f.note.read.pastDueOf([due]);
      assert.ok(daysLate > 300n);
      const shortOnly = await signMatchingOffer(f, buyer(), { parBps: 5_000n, maxTermLeft: 0n, maxDaysPastDue: 400n });
      await refused(f.marketplace.write.acceptMatchingOffer([shortOnly.order, shortOnly.signature, long, 0n], { account: seller().account }), "NoteNotMatching", [shortOnly.hash, long]);
      const at = (await now(f)) + 1n;
      const loan = await f.note.read.loanOf([due]);
      const serviced = { terms: await termsOf(due), repaid: loan.repaid, feesPaidThrough: loan.feesPaidThrough };
      const price = parPrice(payoffSplitWithFees(serviced, at, SERVICING_PARAMS), 5_000n);
      // Nothing repaid past maturity: half the principal, every installment's interest in full, and the late fees
      // of the eleven installments past their fee's grace period (the twelfth's comes fifteen days after maturity).
      const fees = lateFeesOwed(serviced, at, SERVICING_PARAMS);
      assert.equal(fees.count, 11);
      assert.equal(price, P / 2n + schedule.totalDue(await termsOf(due)) - P + fees.amount);
      const before = await f.dollar.read.balanceOf([seller().account.address]);
      await f.networkHelpers.time.setNextBlockTimestamp(at);
      await f.marketplace.write.acceptMatchingOffer([shortOnly.order, shortOnly.signature, due, 0n], { account: seller().account });
      assert.equal((await f.dollar.read.balanceOf([seller().account.address])) - before, price - (price * BigInt(DEFAULTS.feeBps)) / 10_000n);
    });
  });

  it("prices par listings, offers (at most their cap) and matching offers at floor(bps × outstanding / 10,000) plus the interest accrued, to the unit, after random repayments", async () => {
    const samples = fc.sample(
      fc.record({
        bps: fc.bigInt({ min: 1n, max: 12_000n }),
        days: fc.bigInt({ min: 0n, max: 330n }),
        payments: fc.array(fc.bigInt({ min: 1n, max: 300_000_000n }), { minLength: 0, maxLength: 3 }),
        // Around the par price, so the cap binds about half the time, sometimes by one unit.
        capShift: fc.bigInt({ min: -2_000n, max: 2_000n }),
      }),
      { numRuns: 12, seed: 19 },
    );
    let capped = 0;
    let lateNotes = 0;
    for (const { bps, days, payments, capShift } of samples) {
      const tokenId = await f.mintNoteTo(seller());
      if (days > 0n) await f.networkHelpers.time.increase(days * DAY);
      for (const amount of payments) await repay(tokenId, amount);
      const loan = await f.note.read.loanOf([tokenId]);
      const terms = await termsOf(tokenId);
      const outstanding = schedule.outstandingBalance(terms, loan.repaid);
      assert.equal(await f.note.read.outstandingBalance([tokenId]), outstanding);
      // Every fill runs at `at`; the walk leaves some notes late, and these orders accept that, so pricing is proven
      // on late notes too, where the unpaid installments' interest counts.
      const at = (await now(f)) + 1n;
      // A late note's fees owed count as interest: its seller held it while they fell due.
      const serviced = { terms, repaid: loan.repaid, feesPaidThrough: loan.feesPaidThrough };
      const split = payoffSplitWithFees(serviced, at, SERVICING_PARAMS);
      if (pastDue(terms, loan.repaid, at).daysPastDue > 0) lateNotes++;
      assert.equal(split.principal + split.interest, payoffWithFees(serviced, at, SERVICING_PARAMS));
      const par = (bps * split.principal) / 10_000n + split.interest;
      const cap = par + capShift > 0n ? par + capShift : 1n;
      if (cap < par) capped++;
      const s = { account: seller().account };
      const late = { maxDaysPastDue: 1_000n };
      const listing = await signListing(f, seller(), { tokenId, parBps: bps, ...late });
      const offer = await signOffer(f, buyer(), { tokenId, parBps: bps, ...late });
      const cappedOffer = await signOffer(f, buyer(), { tokenId, parBps: bps, cap, ...late });
      const matching = await signMatchingOffer(f, buyer(), { parBps: bps, ...late });
      const kinds = [
        // The exact price as the buyer's maximum and the holder's minimum: one unit off either way refuses the fill.
        { price: par, fill: () => f.marketplace.write.fillListing([listing.order, listing.signature, par], { account: buyer().account }) },
        { price: par, fill: () => f.marketplace.write.acceptOffer([offer.order, offer.signature, par], s) },
        { price: cap < par ? cap : par, fill: () => f.marketplace.write.acceptOffer([cappedOffer.order, cappedOffer.signature, cap < par ? cap : par], s) },
        { price: par, fill: () => f.marketplace.write.acceptMatchingOffer([matching.order, matching.signature, tokenId, par], s) },
      ];
      for (const kind of kinds) {
        const snapshot = await f.networkHelpers.takeSnapshot();
        const before = { buyer: await o.balance(buyer()), seller: await o.balance(seller()), fees: await o.balance(f.accounts.feeRecipient) };
        await f.networkHelpers.time.setNextBlockTimestamp(at);
        await kind.fill();
        const fee = (kind.price * BigInt(DEFAULTS.feeBps)) / 10_000n;
        assert.equal(before.buyer - (await o.balance(buyer())), kind.price);
        assert.equal((await o.balance(seller())) - before.seller, kind.price - fee);
        assert.equal((await o.balance(f.accounts.feeRecipient)) - before.fees, fee);
        await snapshot.restore();
      }
    }
    assert.ok(capped >= 3 && capped <= samples.length - 3, `the cap bound ${capped} of ${samples.length} capped offers`);
    assert.ok(lateNotes >= 3 && lateNotes <= samples.length - 3, `${lateNotes} of ${samples.length} notes were late at their fills`);
  });
});
