import assert from "node:assert/strict";
import { before, beforeEach, describe, it } from "node:test";
import { encodeFunctionData, getAddress, maxUint256, parseEventLogs, zeroAddress, type Hash } from "viem";
import { DEFAULT_TERMS } from "./fixtures";
import { addressOf, deployOrderFixture, type OrderFixture } from "./orders";
import { DAY, PERIOD, now, signPermit } from "./helpers";
import { acceptance, signMatchingRefinanceOffer, signRefinanceOffer } from "./refinanceOrders";

const OFFSET = 1n << 128n;
const P = DEFAULT_TERMS.principal;

describe("refinancing a loan with a lender's signed offer", () => {
  let o: OrderFixture;
  let restore: () => Promise<void>;
  before(async () => {
    o = await deployOrderFixture();
    // The borrower lets the marketplace take a shortfall (a payoff above the new principal), as a review would ask.
    await o.f.dollar.write.approve([o.f.marketplace.address, maxUint256], { account: o.f.accounts.borrower.account });
    const snapshot = await o.f.networkHelpers.takeSnapshot();
    restore = () => snapshot.restore();
  });
  beforeEach(async () => restore());

  const borrower = () => o.f.accounts.borrower;
  const asBorrower = () => ({ account: borrower().account });
  const receipt = async (hash: Promise<Hash>) => o.f.publicClient.waitForTransactionReceipt({ hash: await hash });
  const noteError = (promise: Promise<unknown>, error: string, args: unknown[]) => o.f.viem.assertions.revertWithCustomErrorWithArgs(promise, o.f.note, error as never, args as never);

  describe("a one-loan offer", () => {
    it("pays the holder exactly the payoff, burns the note, mints the new one to the lender and pays the cash out to the borrower", async () => {
      const { f, seller, buyer } = o;
      const tokenId = await f.mintNoteTo(seller);
      await f.networkHelpers.time.increase(25n * DAY);
      const { order, signature, hash } = await signRefinanceOffer(f, buyer, { tokenId, maxPrincipal: 2n * P });
      const payoff = await f.note.read.payoffAmount([tokenId]);
      const [holderCredit, lenderBefore, borrowerBefore] = [await f.note.read.creditsOf([addressOf(seller)]), await o.balance(buyer), await o.balance(borrower())];
      const r = await receipt(f.marketplace.write.acceptRefinanceOffer([order, signature, acceptance(P + 300_000_000n)], asBorrower()));

      const newTokenId = tokenId + OFFSET;
      assert.equal(await f.note.read.creditsOf([addressOf(seller)]), holderCredit + payoff);
      assert.equal(await o.balance(buyer), lenderBefore - (P + 300_000_000n));
      assert.equal(await o.balance(borrower()), borrowerBefore + P + 300_000_000n - payoff);
      assert.equal((await f.note.read.loanOf([tokenId])).status, 2, "the old loan is settled");
      assert.equal((await f.note.read.ownershipOf([tokenId]))[0], zeroAddress, "the old note is burned");
      assert.equal(getAddress(await f.note.read.ownerOf([newTokenId])), addressOf(buyer));
      const loan = await f.note.read.loanOf([newTokenId]);
      assert.deepEqual([loan.principal, loan.rateBps, loan.termMonths, loan.repaid, loan.status], [P + 300_000_000n, 900, 12, 0n, 1]);
      assert.equal(getAddress(await f.note.read.borrowerOf([newTokenId])), addressOf(borrower()));
      assert.equal(await f.marketplace.read.refinancedFrom([newTokenId]), tokenId);
      assert.equal(await f.marketplace.read.refinancedFrom([tokenId]), 0n);

      const refinanced = parseEventLogs({ abi: f.note.abi, logs: r.logs, eventName: "LoanRefinanced" });
      assert.deepEqual(
        refinanced.map((e) => [e.args.tokenId, e.args.newTokenId, getAddress(e.args.lender), e.args.payoff]),
        [[tokenId, newTokenId, addressOf(buyer), payoff]],
      );
      const filled = parseEventLogs({ abi: f.marketplace.abi, logs: r.logs, eventName: "RefinanceFilled" });
      assert.deepEqual(
        filled.map((e) => [e.args.orderHash, e.args.tokenId, e.args.newTokenId, e.args.principal, e.args.payoff]),
        [[hash, tokenId, newTokenId, P + 300_000_000n, payoff]],
      );
      const repaid = parseEventLogs({ abi: f.note.abi, logs: r.logs, eventName: "Repaid" });
      assert.deepEqual(
        repaid.map((e) => [getAddress(e.args.payer), getAddress(e.args.beneficiary), e.args.amount]),
        [[addressOf(borrower()), addressOf(seller), payoff]],
      );
    });

    it("takes a shortfall from the borrower by a permit in the same transaction", async () => {
      const { f, seller, buyer } = o;
      const tokenId = await f.mintNoteTo(seller);
      await f.networkHelpers.time.increase(10n * DAY);
      const payoff = await f.note.read.payoffAmount([tokenId]);
      const principal = payoff - 250_000_000n;
      const { order, signature } = await signRefinanceOffer(f, buyer, { tokenId });
      await f.dollar.write.approve([f.marketplace.address, 0n], asBorrower());
      const most = 251_000_000n;
      const { v, r, s } = await signPermit(f, borrower(), f.marketplace.address, most, (await now(f)) + DAY);
      const before = await o.balance(borrower());
      await f.marketplace.write.acceptRefinanceOfferWithPermit([order, signature, acceptance(principal, { minNet: -most }), (await now(f)) + DAY, v, r, s], asBorrower());
      assert.equal(await o.balance(borrower()), before - (payoff - principal));
      assert.equal(await f.note.read.creditsOf([addressOf(seller)]), payoff);
    });

    it("refinances a late loan, whose payoff cures its arrears, when the offer accepts that lateness", async () => {
      const { f, seller, buyer } = o;
      const tokenId = await f.mintNoteTo(seller);
      await f.networkHelpers.time.increase(75n * DAY);
      const [, , daysPastDue] = await f.note.read.ownershipOf([tokenId]);
      assert.ok(daysPastDue > 30n);
      const strict = await signRefinanceOffer(f, buyer, { tokenId });
      await o.refused(f.marketplace.write.acceptRefinanceOffer([strict.order, strict.signature, acceptance(P)], asBorrower()), "NoteLate", [tokenId, daysPastDue]);
      const lenient = await signRefinanceOffer(f, buyer, { tokenId, maxDaysPastDue: 60n });
      const payoff = await f.note.read.payoffAmount([tokenId]);
      const [fees, count] = await f.note.read.lateFeesOf([tokenId]);
      assert.ok(fees > 0n && count > 0n, "the loan owes late fees, which its payoff includes");
      const r = await receipt(f.marketplace.write.acceptRefinanceOffer([lenient.order, lenient.signature, acceptance(P)], asBorrower()));
      assert.equal(await f.note.read.creditsOf([addressOf(seller)]), payoff);
      const paid = parseEventLogs({ abi: f.note.abi, logs: r.logs, eventName: "LateFeesPaid" });
      assert.deepEqual(
        paid.map((e) => [getAddress(e.args.beneficiary), e.args.amount]),
        [[addressOf(seller), fees]],
      );
      const [, , newDaysPastDue] = await f.note.read.ownershipOf([tokenId + OFFSET]);
      assert.equal(newDaysPastDue, 0n, "the new loan is current");
    });

    it("works for a vaulted note (the depositor is credited) and for a lender's EIP-1271 wallet", async () => {
      const { f, seller, buyer } = o;
      const tokenId = await f.mintNoteTo(seller);
      await f.note.write.safeTransferFrom([addressOf(seller), f.vault.address, tokenId], { account: seller.account });
      const wallet = await f.viem.deployContract("ContractWallet", [addressOf(buyer)]);
      await f.dollar.write.mint([wallet.address, 10n * P]);
      await wallet.write.execute([f.dollar.address, encodeApprove(f.marketplace.address)], { account: buyer.account });
      const { order, signature } = await signRefinanceOffer(f, { wallet: wallet.address, owner: buyer }, { tokenId });
      const payoff = await f.note.read.payoffAmount([tokenId]);
      await f.marketplace.write.acceptRefinanceOffer([order, signature, acceptance(P)], asBorrower());
      assert.equal(await f.note.read.creditsOf([addressOf(seller)]), payoff);
      assert.equal(getAddress(await f.note.read.ownerOf([tokenId + OFFSET])), getAddress(wallet.address));
    });

    it("refinances a refinanced loan again, at the next id", async () => {
      const { f, seller, buyer, other } = o;
      const tokenId = await f.mintNoteTo(seller);
      const first = await signRefinanceOffer(f, buyer, { tokenId });
      await f.marketplace.write.acceptRefinanceOffer([first.order, first.signature, acceptance(P)], asBorrower());
      const second = await signRefinanceOffer(f, other, { tokenId: tokenId + OFFSET, rateBps: 800n });
      await f.marketplace.write.acceptRefinanceOffer([second.order, second.signature, acceptance(P)], asBorrower());
      assert.equal(getAddress(await f.note.read.ownerOf([tokenId + 2n * OFFSET])), addressOf(other));
      assert.equal(await f.marketplace.read.refinancedFrom([tokenId + 2n * OFFSET]), tokenId + OFFSET);
    });
  });

  describe("a matching offer", () => {
    it("refinances every matching loan until its budget is spent, and no loan outside its ranges", async () => {
      const { f, seller, buyer } = o;
      const [a, b, c] = [await f.mintNoteTo(seller), await f.mintNoteTo(seller), await f.mintNoteTo(seller)];
      const { order, signature, hash } = await signMatchingRefinanceOffer(f, buyer, { budget: 2n * P + 100n, minRateBps: 1_000n, maxRateBps: 1_500n });
      await f.marketplace.write.acceptMatchingRefinanceOffer([order, signature, a, acceptance(P)], asBorrower());
      await f.marketplace.write.acceptMatchingRefinanceOffer([order, signature, b, acceptance(P)], asBorrower());
      assert.deepEqual(await f.marketplace.read.orderStatus([addressOf(buyer), hash]), [false, 2n * P]);
      await o.refused(f.marketplace.write.acceptMatchingRefinanceOffer([order, signature, c, acceptance(P)], asBorrower()), "BudgetExceeded", [hash, P, 100n]);
      const narrow = await signMatchingRefinanceOffer(f, buyer, { minRateBps: 1_300n });
      await o.refused(f.marketplace.write.acceptMatchingRefinanceOffer([narrow.order, narrow.signature, c, acceptance(P)], asBorrower()), "NoteNotMatching", [narrow.hash, c]);
      for (const ranges of [{ minTermLeft: 400n * DAY }, { maxTermLeft: DAY }, { minOutstanding: P + 1n }, { maxOutstanding: P - 1n }]) {
        const outside = await signMatchingRefinanceOffer(f, buyer, ranges);
        await o.refused(f.marketplace.write.acceptMatchingRefinanceOffer([outside.order, outside.signature, c, acceptance(P)], asBorrower()), "NoteNotMatching", [outside.hash, c]);
      }
      const capped = await signMatchingRefinanceOffer(f, buyer, { maxPrincipal: P - 1n });
      await o.refused(f.marketplace.write.acceptMatchingRefinanceOffer([capped.order, capped.signature, c, acceptance(P)], asBorrower()), "PrincipalAboveCap", [P, P - 1n]);
      await f.networkHelpers.time.increase(PERIOD + DAY);
      const strict = await signMatchingRefinanceOffer(f, buyer);
      await o.refused(f.marketplace.write.acceptMatchingRefinanceOffer([strict.order, strict.signature, c, acceptance(P)], asBorrower()), "NoteLate", [c, 2n]);
      const replaced = await signMatchingRefinanceOffer(f, buyer);
      await o.refused(f.marketplace.write.acceptMatchingRefinanceOffer([replaced.order, replaced.signature, a, acceptance(P)], asBorrower()), "NoteNotMatching", [replaced.hash, a]);
    });
  });

  describe("edges", () => {
    it("moves no money to or from the borrower when the principal is exactly the payoff, also with a permit", async () => {
      const { f, seller, buyer } = o;
      const tokenId = await f.mintNoteTo(seller);
      const payoff = await f.note.read.payoffAmount([tokenId]);
      const { order, signature } = await signMatchingRefinanceOffer(f, buyer);
      const before = await o.balance(borrower());
      const deadline = (await now(f)) + DAY;
      const { v, r, s } = await signPermit(f, borrower(), f.marketplace.address, 0n, deadline);
      await f.marketplace.write.acceptMatchingRefinanceOfferWithPermit([order, signature, tokenId, acceptance(payoff, { minNet: 0n }), deadline, v, r, s], asBorrower());
      assert.equal(await o.balance(borrower()), before);
      assert.equal(await f.note.read.creditsOf([addressOf(seller)]), payoff);
    });

    it("names no replaced note for an id in the refinanced range that was never minted", async () => {
      assert.equal(await o.f.marketplace.read.refinancedFrom([OFFSET + 999n]), 0n);
    });

    it("keeps originated ids below the refinanced range", async () => {
      const { f } = o;
      await noteError(f.note.write.originate([OFFSET, addressOf(borrower()), P, 1200, 12], { account: f.accounts.originator.account }), "InvalidLoanNumber", [OFFSET]);
    });

    it("caps the minimum rate improvement a deployment can ask for", async () => {
      const { f } = o;
      const a = f.accounts.admin.account.address;
      await o.refused(f.viem.deployContract("NoteMarketplace", [f.note.address, f.dollar.address, a, a, 0, 1_001n]) as never, "MinRateImprovementTooHigh", [1_001n]);
    });
  });

  describe("refusals", () => {
    it("only the borrower accepts: not the holder, the lender or anyone else", async () => {
      const { f, seller, buyer, other } = o;
      const tokenId = await f.mintNoteTo(seller);
      const { order, signature } = await signRefinanceOffer(f, buyer, { tokenId });
      for (const who of [seller, buyer, other]) {
        await noteError(f.marketplace.write.acceptRefinanceOffer([order, signature, acceptance(P)], { account: who.account }), "NotBorrower", [tokenId, addressOf(who)]);
      }
    });

    it("nobody but the marketplace calls the note contract's refinance", async () => {
      const { f, seller, buyer } = o;
      const tokenId = await f.mintNoteTo(seller);
      for (const who of [borrower(), buyer, f.accounts.admin, f.accounts.originator]) {
        await noteError(f.note.write.refinance([tokenId, addressOf(borrower()), addressOf(buyer), P, 900, 12], { account: who.account }), "NotRefinancer", [addressOf(who)]);
      }
    });

    it("refuses terms that lower neither the rate by the minimum nor the monthly payment", async () => {
      const { f, seller, buyer } = o;
      const tokenId = await f.mintNoteTo(seller);
      // 40 bps lower on a larger principal (cash out): the monthly payment grows.
      const more = P + 100_000_000n;
      const { order, signature } = await signRefinanceOffer(f, buyer, { tokenId, rateBps: 1_160n });
      await o.refused(f.marketplace.write.acceptRefinanceOffer([order, signature, acceptance(more)], asBorrower()), "TermsNotBetter", [tokenId, 1_200n, 1_160n]);
      // 50 bps lower is enough whatever the payment; a longer term at the same rate lowers the payment, enough too.
      const enough = await signRefinanceOffer(f, buyer, { tokenId, rateBps: 1_150n });
      await f.marketplace.simulate.acceptRefinanceOffer([enough.order, enough.signature, acceptance(more)], { account: addressOf(borrower()) });
      const longer = await signRefinanceOffer(f, buyer, { tokenId, rateBps: 1_200n, termMonths: 24n });
      await f.marketplace.simulate.acceptRefinanceOffer([longer.order, longer.signature, acceptance(P)], { account: addressOf(borrower()) });
    });

    it("refuses a shorter term unless the borrower ticks it", async () => {
      const { f, seller, buyer } = o;
      const tokenId = await f.mintNoteTo(seller);
      const { order, signature } = await signRefinanceOffer(f, buyer, { tokenId, termMonths: 6n });
      const maturity = (await f.note.read.noteStateOf([tokenId])).maturity;
      await assert.rejects(f.marketplace.write.acceptRefinanceOffer([order, signature, acceptance(P)], asBorrower()), /TermShortened/);
      await f.marketplace.write.acceptRefinanceOffer([order, signature, acceptance(P, { allowShorterTerm: true })], asBorrower());
      assert.ok((await f.note.read.noteStateOf([tokenId + OFFSET])).maturity < maturity);
    });

    it("refuses a defaulted or repaid loan, an expired, cancelled or replayed offer, and a principal above the cap", async () => {
      const { f, seller, buyer } = o;
      const tokenId = await f.mintNoteTo(seller);
      const offer = await signRefinanceOffer(f, buyer, { tokenId, maxPrincipal: P });
      await o.refused(f.marketplace.write.acceptRefinanceOffer([offer.order, offer.signature, acceptance(P + 1n)], asBorrower()), "PrincipalAboveCap", [P + 1n, P]);

      const expired = await signRefinanceOffer(f, buyer, { tokenId, expiry: await now(f) });
      await o.refused(f.marketplace.write.acceptRefinanceOffer([expired.order, expired.signature, acceptance(P)], asBorrower()), "OrderExpired", [expired.hash]);

      const cancelled = await signRefinanceOffer(f, buyer, { tokenId });
      await f.marketplace.write.cancelOrders([[cancelled.hash]], { account: buyer.account });
      await o.refused(f.marketplace.write.acceptRefinanceOffer([cancelled.order, cancelled.signature, acceptance(P)], asBorrower()), "OrderUnavailable", [cancelled.hash]);

      const countered = await signRefinanceOffer(f, buyer, { tokenId });
      await f.marketplace.write.incrementCounter({ account: buyer.account });
      await o.refused(f.marketplace.write.acceptRefinanceOffer([countered.order, countered.signature, acceptance(P)], asBorrower()), "OrderUnavailable", [countered.hash]);

      const once = await signRefinanceOffer(f, buyer, { tokenId });
      await f.marketplace.write.acceptRefinanceOffer([once.order, once.signature, acceptance(P)], asBorrower());
      await noteError(f.marketplace.write.acceptRefinanceOffer([once.order, once.signature, acceptance(P)], asBorrower()), "LoanNotActive", [tokenId]);

      const late = await f.mintNoteTo(seller);
      await f.networkHelpers.time.increase(420n * DAY);
      await f.note.write.markDefaulted([late], { account: f.accounts.originator.account });
      const onDefaulted = await signRefinanceOffer(f, buyer, { tokenId: late, maxDaysPastDue: 10_000n, termMonths: 24n });
      await noteError(f.marketplace.write.acceptRefinanceOffer([onDefaulted.order, onDefaulted.signature, acceptance(P)], asBorrower()), "LoanNotActive", [late]);
    });

    it("stops while the marketplace or the note contract is paused, as fills and originations do", async () => {
      const { f, seller, buyer } = o;
      const tokenId = await f.mintNoteTo(seller);
      const { order, signature } = await signRefinanceOffer(f, buyer, { tokenId });
      const accept = () => f.marketplace.write.acceptRefinanceOffer([order, signature, acceptance(P)], asBorrower());
      await f.marketplace.write.pause();
      await o.refused(accept(), "EnforcedPause", []);
      await f.marketplace.write.unpause();
      await f.note.write.pause();
      await noteError(accept(), "EnforcedPause", []);
      await f.note.write.unpause();
      await accept();
    });

    it("a repayment between signature and acceptance makes nobody pay more than they named", async () => {
      const { f, seller, buyer } = o;
      const tokenId = await f.mintNoteTo(seller);
      const { order, signature } = await signRefinanceOffer(f, buyer, { tokenId });
      const payoff = await f.note.read.payoffAmount([tokenId]);
      const minNet = P + 500_000_000n - payoff; // the cash out the borrower reviewed
      await f.networkHelpers.time.increase(20n * DAY); // the payoff grew: less cash out than reviewed
      const grown = await f.note.read.payoffAmount([tokenId]);
      await o.refused(f.marketplace.write.acceptRefinanceOffer([order, signature, acceptance(P + 500_000_000n, { minNet })], asBorrower()), "NetBelowMin", [P + 500_000_000n - grown, minNet]);
      await o.repay(tokenId, grown - payoff); // someone pays the difference
      const lenderBefore = await o.balance(buyer);
      await f.marketplace.write.acceptRefinanceOffer([order, signature, acceptance(P + 500_000_000n, { minNet })], asBorrower());
      assert.equal(await o.balance(buyer), lenderBefore - P - 500_000_000n, "the lender paid exactly the chosen principal");
    });
  });

  describe("attacks", () => {
    it("an old holder that rejects every call cannot block it: it is credited and its note burned without a call", async () => {
      const { f, buyer } = o;
      const holder = await f.viem.deployContract("MaliciousReceiver");
      const tokenId = await f.mintNoteTo(holder.address);
      await holder.write.arm([f.marketplace.address, "0x"]);
      const { order, signature } = await signRefinanceOffer(f, buyer, { tokenId });
      const payoff = await f.note.read.payoffAmount([tokenId]);
      await f.marketplace.write.acceptRefinanceOffer([order, signature, acceptance(P)], asBorrower());
      assert.equal(await holder.read.attempted(), false);
      assert.equal(await f.note.read.creditsOf([holder.address]), payoff);
    });

    it("an EIP-1271 lender re-entering from its signature check changes nothing: the check is a static call", async () => {
      const { f, seller, buyer } = o;
      const tokenId = await f.mintNoteTo(seller);
      const wallet = await f.viem.deployContract("ReenteringWallet", [addressOf(buyer)]);
      await f.dollar.write.mint([wallet.address, 10n * P]);
      await wallet.write.execute([f.dollar.address, encodeApprove(f.marketplace.address)], { account: buyer.account });
      const { order, signature, hash } = await signRefinanceOffer(f, { wallet: wallet.address, owner: buyer }, { tokenId });
      // Were the call to go through, the wallet would cancel the very offer being filled, or all of its offers.
      await wallet.write.arm([f.marketplace.address, encodeFunctionData({ abi: f.marketplace.abi, functionName: "cancelOrders", args: [[hash]] })]);
      await f.marketplace.write.acceptRefinanceOffer([order, signature, acceptance(P)], asBorrower());
      assert.deepEqual(await f.marketplace.read.orderStatus([wallet.address, hash]), [false, 0n]);
      assert.equal(getAddress(await f.note.read.ownerOf([tokenId + OFFSET])), getAddress(wallet.address));
    });

    it("a lender cannot take back what it signed by front-running: a cancelled offer or withdrawn allowance only reverts the acceptance", async () => {
      const { f, seller, buyer } = o;
      const tokenId = await f.mintNoteTo(seller);
      const { order, signature } = await signRefinanceOffer(f, buyer, { tokenId });
      await f.dollar.write.approve([f.marketplace.address, 0n], { account: buyer.account });
      await assert.rejects(f.marketplace.write.acceptRefinanceOffer([order, signature, acceptance(P)], asBorrower()));
      assert.equal(getAddress(await f.note.read.ownerOf([tokenId])), addressOf(seller), "the loan is untouched");
      assert.equal((await f.note.read.loanOf([tokenId])).repaid, 0n);
    });
  });
});

function encodeApprove(spender: `0x${string}`): `0x${string}` {
  return `0x095ea7b3${spender.slice(2).toLowerCase().padStart(64, "0")}${"f".repeat(64)}`;
}
