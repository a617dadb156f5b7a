import assert from "node:assert/strict";
import { before, beforeEach, describe, it } from "node:test";
import { encodeFunctionData, getAddress, maxUint256, parseSignature, serializeCompactSignature, serializeSignature, signatureToCompactSignature, type Hex } from "viem";
import { DEFAULTS } from "../params";
import { DEFAULT_TERMS, ROLES, type LoanNoteFixture } from "./fixtures";
import { DAY, fund, now, signPermit } from "./helpers";
import { addressOf, deployOrderFixture, parPriceOf, signListing, signMatchingOffer, signOffer, type OrderFixture, type Signer } from "./orders";

const P = DEFAULT_TERMS.principal;
const fee = (price: bigint) => (price * BigInt(DEFAULTS.feeBps)) / 10_000n;
/** secp256k1's group order: s and n - s are both valid for ecrecover, only the low one for the marketplace. */
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

describe("signed orders", () => {
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
  const balance: OrderFixture["balance"] = (w) => o.balance(w);
  const repay: OrderFixture["repay"] = (...args) => o.repay(...args);

  /** Each kind of order on the seller's note, and how to fill it: by the buyer (listings) or the holder (offers). */
  async function everyKind(tokenId: bigint, expiryAt?: bigint) {
    const expiry = expiryAt ?? (await now(f)) + 1_000n;
    const fixed = await signListing(f, seller(), { tokenId, price: P, expiry });
    const par = await signListing(f, seller(), { tokenId, parBps: 9_900n, expiry });
    const offer = await signOffer(f, buyer(), { tokenId, price: P, expiry });
    const parOffer = await signOffer(f, buyer(), { tokenId, parBps: 9_800n, expiry });
    const matching = await signMatchingOffer(f, buyer(), { parBps: 9_700n, expiry });
    const s = { account: seller().account };
    return [
      { name: "fixed listing", signer: seller(), hash: fixed.hash, fill: () => f.marketplace.write.fillListing([fixed.order, fixed.signature, P], { account: buyer().account }) },
      { name: "par listing", signer: seller(), hash: par.hash, fill: () => f.marketplace.write.fillListing([par.order, par.signature, P], { account: buyer().account }) },
      { name: "fixed offer", signer: buyer(), hash: offer.hash, fill: () => f.marketplace.write.acceptOffer([offer.order, offer.signature, 0n], s) },
      { name: "par offer", signer: buyer(), hash: parOffer.hash, fill: () => f.marketplace.write.acceptOffer([parOffer.order, parOffer.signature, 0n], s) },
      { name: "matching offer", signer: buyer(), hash: matching.hash, fill: () => f.marketplace.write.acceptMatchingOffer([matching.order, matching.signature, tokenId, 0n], s) },
    ];
  }

  describe("filled", () => {
    it("fills a fixed-price listing: the buyer gets the note, the seller the price less the fee, the fee recipient the fee", async () => {
      const tokenId = await f.mintNoteTo(seller());
      const { order, signature, hash: orderHash } = await signListing(f, seller(), { tokenId, price: P });
      const before = { seller: await balance(seller()), buyer: await balance(buyer()), fees: await balance(f.accounts.feeRecipient) };
      const tx = await f.marketplace.write.fillListing([order, signature, P], { account: buyer().account });
      await f.viem.assertions.emitWithArgs(tx, f.marketplace, "OrderFilled", [orderHash, tokenId, addr(seller()), addr(buyer()), P, fee(P)]);
      assert.equal(await f.note.read.ownerOf([tokenId]), addr(buyer()));
      assert.equal(await balance(buyer()), before.buyer - P);
      assert.equal(await balance(seller()), before.seller + P - fee(P));
      assert.equal(await balance(f.accounts.feeRecipient), before.fees + fee(P));
      assert.equal(await f.dollar.read.balanceOf([f.marketplace.address]), 0n);
    });

    it("fills a par listing at floor(bps × outstanding principal / 10,000) plus the interest accrued, after a repayment", async () => {
      const tokenId = await f.mintNoteTo(seller());
      const { order, signature } = await signListing(f, seller(), { tokenId, parBps: 9_850n });
      await f.networkHelpers.time.increase(30n * DAY);
      await repay(tokenId, await f.note.read.monthlyPayment([tokenId]));
      const outstanding = await f.note.read.outstandingBalance([tokenId]);
      assert.ok(outstanding < P);
      // The dirty price: the principal at the signed percentage, the interest of the new period's first day in full.
      const state = await f.note.read.noteStateOf([tokenId]);
      assert.equal(state.outstanding, outstanding);
      assert.equal(state.interest, (await f.note.read.payoffAmount([tokenId])) - outstanding);
      assert.ok(state.interest > 0n);
      const price = (outstanding * 9_850n) / 10_000n + state.interest;
      const sellerBefore = await balance(seller());
      await f.marketplace.write.fillListing([order, signature, price], { account: buyer().account });
      assert.equal(await balance(seller()), sellerBefore + price - fee(price));
      assert.equal(await f.note.read.ownerOf([tokenId]), addr(buyer()));
    });

    it("fills a listing after a permit given in the same transaction, with no allowance before", async () => {
      const tokenId = await f.mintNoteTo(seller());
      const { order, signature } = await signListing(f, seller(), { tokenId, parBps: 10_000n });
      const fresh = f.wallets[ROLES.firstUser + 3];
      const price = await parPriceOf(f, tokenId, 10_000n);
      await fund(f, fresh, price);
      const deadline = (await now(f)) + 600n;
      const permit = await signPermit(f, fresh, f.marketplace.address, price, deadline);
      await f.marketplace.write.fillListingWithPermit([order, signature, price, deadline, permit.v, permit.r, permit.s], { account: fresh.account });
      assert.equal(await f.note.read.ownerOf([tokenId]), addr(fresh));
      assert.equal(await balance(fresh), 0n);
    });

    it("fills a fixed-price offer on one note when its holder accepts it", async () => {
      const tokenId = await f.mintNoteTo(seller());
      const { order, signature, hash: orderHash } = await signOffer(f, buyer(), { tokenId, price: P - 1n });
      const tx = await f.marketplace.write.acceptOffer([order, signature, P - 1n], { account: seller().account });
      await f.viem.assertions.emitWithArgs(tx, f.marketplace, "OrderFilled", [orderHash, tokenId, addr(seller()), addr(buyer()), P - 1n, fee(P - 1n)]);
      assert.equal(await f.note.read.ownerOf([tokenId]), addr(buyer()));
    });

    it("fills a par offer at par, and at its dollar cap when the par price is above it", async () => {
      const [a, b] = [await f.mintNoteTo(seller()), await f.mintNoteTo(seller())];
      const atPar = await signOffer(f, buyer(), { tokenId: a, parBps: 9_900n, cap: P });
      const capped = await signOffer(f, buyer(), { tokenId: b, parBps: 9_900n, cap: 900_000_000n });
      const before = await balance(buyer());
      const par = await parPriceOf(f, a, 9_900n);
      assert.ok(par < P && (await parPriceOf(f, b, 9_900n)) > 900_000_000n);
      await f.marketplace.write.acceptOffer([atPar.order, atPar.signature, par], { account: seller().account });
      assert.equal(await balance(buyer()), before - par);
      await f.marketplace.write.acceptOffer([capped.order, capped.signature, 900_000_000n], { account: seller().account });
      assert.equal(await balance(buyer()), before - par - 900_000_000n);
    });

    it("fills a matching offer across several notes until its budget is spent, and tracks what it filled", async () => {
      const notes = [await f.mintNoteTo(seller()), await f.mintNoteTo(other()), await f.mintNoteTo(seller())];
      // Three notes of the same terms on their first day: one dirty price for all of them.
      const price = await parPriceOf(f, notes[0], 9_500n);
      for (const tokenId of notes) assert.equal(await parPriceOf(f, tokenId, 9_500n), price);
      const { order, signature, hash: orderHash } = await signMatchingOffer(f, buyer(), { parBps: 9_500n, budget: 2n * price });
      await f.marketplace.write.acceptMatchingOffer([order, signature, notes[0], 0n], { account: seller().account });
      await f.marketplace.write.acceptMatchingOffer([order, signature, notes[1], 0n], { account: other().account });
      assert.deepEqual(await f.marketplace.read.orderStatus([addr(buyer()), orderHash]), [false, 2n * price]);
      await refused(f.marketplace.write.acceptMatchingOffer([order, signature, notes[2], 0n], { account: seller().account }), "BudgetExceeded", [orderHash, price, 0n]);
      assert.equal(await f.note.read.ownerOf([notes[0]]), addr(buyer()));
      assert.equal(await f.note.read.ownerOf([notes[1]]), addr(buyer()));
    });
  });

  describe("refused", () => {
    it("refuses every order kind one second after its expiry, and fills it at the expiry", async () => {
      const tokenId = await f.mintNoteTo(seller());
      const expiry = (await now(f)) + 1_000n;
      for (const kind of await everyKind(tokenId, expiry)) {
        const snapshot = await f.networkHelpers.takeSnapshot();
        await f.networkHelpers.time.increaseTo(expiry - 1n); // the fill's block is the next second: the expiry
        await kind.fill();
        await snapshot.restore();
        await f.networkHelpers.time.increaseTo(expiry);
        await refused(kind.fill(), "OrderExpired", [kind.hash]);
        await snapshot.restore();
      }
    });

    it("refuses every order kind its signer cancelled, while the same hash cancelled by someone else changes nothing", async () => {
      const tokenId = await f.mintNoteTo(seller());
      for (const kind of await everyKind(tokenId)) {
        const snapshot = await f.networkHelpers.takeSnapshot();
        await f.marketplace.write.cancelOrders([[kind.hash]], { account: other().account });
        const tx = await f.marketplace.write.cancelOrders([[kind.hash]], { account: kind.signer.account });
        await f.viem.assertions.emitWithArgs(tx, f.marketplace, "OrderCancelled", [addr(kind.signer), kind.hash]);
        assert.deepEqual(await f.marketplace.read.orderStatus([addr(kind.signer), kind.hash]), [true, 0n]);
        await refused(kind.fill(), "OrderUnavailable", [kind.hash]);
        await snapshot.restore();
      }
    });

    it("refuses every order kind signed before its signer incremented their counter", async () => {
      const tokenId = await f.mintNoteTo(seller());
      for (const kind of await everyKind(tokenId)) {
        const snapshot = await f.networkHelpers.takeSnapshot();
        const tx = await f.marketplace.write.incrementCounter({ account: kind.signer.account });
        await f.viem.assertions.emitWithArgs(tx, f.marketplace, "CounterIncremented", [addr(kind.signer), 1n]);
        await refused(kind.fill(), "OrderUnavailable", [kind.hash]);
        await snapshot.restore();
      }
    });

    it("never fills an order twice, even when the note comes back to the seller", async () => {
      const tokenId = await f.mintNoteTo(seller());
      const back = () => f.note.write.transferFrom([addr(buyer()), addr(seller()), tokenId], { account: buyer().account });
      for (const kind of await everyKind(tokenId)) {
        const snapshot = await f.networkHelpers.takeSnapshot();
        await kind.fill();
        await back();
        const error = kind.name.startsWith("fixed") ? "OrderStale" : "OrderUnavailable";
        if (kind.name === "matching offer") {
          // A matching offer is a standing bid: it may buy a matching note again, within its budget only.
          await kind.fill();
          assert.equal(await f.note.read.ownerOf([tokenId]), addr(buyer()));
        } else await refused(kind.fill(), error, [kind.hash]);
        await snapshot.restore();
      }
    });

    it("refuses an order whose signature comes from a key other than its signer's", async () => {
      const tokenId = await f.mintNoteTo(seller());
      const { order, hash: orderHash } = await signListing(f, seller(), { tokenId, price: P });
      const forged = await signListing(f, other(), { ...order });
      await refused(f.marketplace.write.fillListing([order, forged.signature, P], { account: buyer().account }), "InvalidSignature", [orderHash]);
      const offer = await signOffer(f, buyer(), { tokenId, price: P });
      const forgedOffer = await signOffer(f, other(), { ...offer.order });
      await refused(f.marketplace.write.acceptOffer([offer.order, forgedOffer.signature, 0n], { account: seller().account }), "InvalidSignature", [offer.hash]);
    });

    it("refuses a malleable (high-s) copy of a valid signature, though ecrecover would accept it", async () => {
      const tokenId = await f.mintNoteTo(seller());
      const { order, signature, hash: orderHash } = await signListing(f, seller(), { tokenId, price: P });
      const { r, s, yParity } = parseSignature(signature);
      const highS = `0x${(SECP256K1_N - BigInt(s)).toString(16).padStart(64, "0")}` as Hex;
      const malleable = serializeSignature({ r, s: highS, yParity: yParity === 0 ? 1 : 0 });
      await refused(f.marketplace.write.fillListing([order, malleable, P], { account: buyer().account }), "InvalidSignature", [orderHash]);
      await f.marketplace.write.fillListing([order, signature, P], { account: buyer().account });
    });

    it("refuses a 64-byte compact (EIP-2098) signature: the marketplace takes one form of each signature, 65 bytes", async () => {
      const tokenId = await f.mintNoteTo(seller());
      const offer = await signOffer(f, buyer(), { tokenId, price: P });
      const compact = serializeCompactSignature(signatureToCompactSignature(parseSignature(offer.signature)));
      assert.equal((compact.length - 2) / 2, 64);
      await refused(f.marketplace.write.acceptOffer([offer.order, compact, 0n], { account: seller().account }), "InvalidSignature", [offer.hash]);
    });

    it("refuses a fill above the buyer's maxPrice and an acceptance below the holder's minPrice", async () => {
      const tokenId = await f.mintNoteTo(seller());
      const listing = await signListing(f, seller(), { tokenId, parBps: 10_000n });
      const payoff = await f.note.read.payoffAmount([tokenId]);
      await refused(f.marketplace.write.fillListing([listing.order, listing.signature, payoff - 1n], { account: buyer().account }), "PriceAboveMax", [payoff, payoff - 1n]);
      const offer = await signOffer(f, buyer(), { tokenId, parBps: 9_000n });
      const ninety = await parPriceOf(f, tokenId, 9_000n);
      await refused(f.marketplace.write.acceptOffer([offer.order, offer.signature, P], { account: seller().account }), "PriceBelowMin", [ninety, P]);
      const matching = await signMatchingOffer(f, buyer(), { parBps: 9_000n });
      await refused(f.marketplace.write.acceptMatchingOffer([matching.order, matching.signature, tokenId, P], { account: seller().account }), "PriceBelowMin", [ninety, P]);
    });

    it("refuses every fill while paused, but lets signers cancel and increment their counter", async () => {
      const tokenId = await f.mintNoteTo(seller());
      const kinds = await everyKind(tokenId);
      await f.marketplace.write.pause();
      for (const kind of kinds) await f.viem.assertions.revertWithCustomError(kind.fill(), f.marketplace, "EnforcedPause");
      const listing = await signListing(f, seller(), { tokenId, price: P });
      const deadline = (await now(f)) + 600n;
      const permit = await signPermit(f, buyer(), f.marketplace.address, P, deadline);
      await f.viem.assertions.revertWithCustomError(
        f.marketplace.write.fillListingWithPermit([listing.order, listing.signature, P, deadline, permit.v, permit.r, permit.s], { account: buyer().account }),
        f.marketplace,
        "EnforcedPause",
      );
      await f.marketplace.write.cancelOrders([kinds.map((k) => k.hash)], { account: seller().account });
      await f.marketplace.write.incrementCounter({ account: buyer().account });
      assert.equal(await f.marketplace.read.counterOf([addr(buyer())]), 1n);
    });
  });

  describe("signed by an EIP-1271 contract wallet", () => {
    async function wallet(owner: (typeof f.wallets)[number]) {
      const contract = await f.viem.deployContract("ContractWallet", [owner.account.address]);
      const run = (to: Hex, data: Hex) => contract.write.execute([to, data], { account: owner.account });
      await f.dollar.write.mint([contract.address, 10n * P]);
      await run(f.dollar.address, encodeFunctionData({ abi: f.dollar.abi, functionName: "approve", args: [f.marketplace.address, maxUint256] }));
      await run(f.note.address, encodeFunctionData({ abi: f.note.abi, functionName: "setApprovalForAll", args: [f.marketplace.address, true] }));
      return { contract, signer: { wallet: getAddress(contract.address), owner } satisfies Signer };
    }

    it("fills a listing and an offer the wallet signed, and refuses one signed by a key it does not accept", async () => {
      const { signer } = await wallet(seller());
      const tokenId = await f.mintNoteTo(signer.wallet);
      const listing = await signListing(f, signer, { tokenId, parBps: 10_000n });
      const notTheOwner = await signListing(f, { wallet: signer.wallet, owner: other() }, { ...listing.order });
      const payoff = await f.note.read.payoffAmount([tokenId]);
      await refused(f.marketplace.write.fillListing([listing.order, notTheOwner.signature, payoff], { account: buyer().account }), "InvalidSignature", [listing.hash]);
      await f.marketplace.write.fillListing([listing.order, listing.signature, payoff], { account: buyer().account });
      assert.equal(await f.note.read.ownerOf([tokenId]), addr(buyer()));

      const investor = await wallet(other());
      const offer = await signOffer(f, investor.signer, { tokenId, parBps: 9_900n });
      const price = await parPriceOf(f, tokenId, 9_900n);
      await f.marketplace.write.acceptOffer([offer.order, offer.signature, price], { account: buyer().account });
      assert.equal(await f.note.read.ownerOf([tokenId]), investor.signer.wallet);
      assert.equal(await f.dollar.read.balanceOf([investor.signer.wallet]), 10n * P - price);
    });
  });
});
