import assert from "node:assert/strict";
import { before, beforeEach, describe, it } from "node:test";
import { getAddress, zeroAddress } from "viem";
import { DEFAULT_TERMS, ROLES, deployLoanNoteFixture, type LoanNoteFixture } from "./fixtures";
import { fund, now, signPermit } from "./helpers";

describe("NoteMarketplace", () => {
  let f: LoanNoteFixture;
  let restore: () => Promise<void>;
  const price = 990_000_000n;
  const fee = (price * 100n) / 10_000n;

  before(async () => {
    f = await deployLoanNoteFixture();
    const snapshot = await f.networkHelpers.takeSnapshot();
    restore = () => snapshot.restore();
  });
  beforeEach(async () => restore());

  const seller = () => f.wallets[ROLES.firstUser];
  const buyer = () => f.wallets[ROLES.firstUser + 1];
  const other = () => f.wallets[ROLES.firstUser + 2];

  /** A note held by the seller, who approved the marketplace for it, and a funded, approving buyer. */
  async function listed(tokenPrice = price): Promise<bigint> {
    const tokenId = await f.mintNoteTo(seller());
    await f.note.write.approve([f.marketplace.address, tokenId], { account: seller().account });
    await f.marketplace.write.list([tokenId, tokenPrice], { account: seller().account });
    await fund(f, buyer(), 10n * price, f.marketplace.address);
    return tokenId;
  }

  describe("list", () => {
    it("lists a note its holder approved and emits Listed", async () => {
      const tokenId = await f.mintNoteTo(seller());
      await f.note.write.approve([f.marketplace.address, tokenId], { account: seller().account });
      const hash = await f.marketplace.write.list([tokenId, price], { account: seller().account });
      await f.viem.assertions.emitWithArgs(hash, f.marketplace, "Listed", [tokenId, getAddress(seller().account.address), price]);
      assert.deepEqual(await f.marketplace.read.listingOf([tokenId]), [getAddress(seller().account.address), price]);
    });

    it("accepts an operator approval, as the treasury gives", async () => {
      const tokenId = await f.mintNoteTo(f.accounts.treasury);
      await f.marketplace.write.list([tokenId, DEFAULT_TERMS.principal], { account: f.accounts.treasury.account });
      assert.deepEqual(await f.marketplace.read.listingOf([tokenId]), [getAddress(f.accounts.treasury.account.address), DEFAULT_TERMS.principal]);
    });

    it("refuses someone who does not hold the note", async () => {
      const tokenId = await f.mintNoteTo(seller());
      await f.viem.assertions.revertWithCustomErrorWithArgs(f.marketplace.write.list([tokenId, price], { account: other().account }), f.marketplace, "NotTokenOwner", [
        tokenId,
        getAddress(other().account.address),
      ]);
    });

    it("refuses a zero price and one above the packed bound", async () => {
      const tokenId = await f.mintNoteTo(f.accounts.treasury);
      for (const bad of [0n, 2n ** 64n]) {
        await f.viem.assertions.revertWithCustomErrorWithArgs(f.marketplace.write.list([tokenId, bad], { account: f.accounts.treasury.account }), f.marketplace, "InvalidPrice", [bad]);
      }
    });

    it("refuses a note the marketplace may not move", async () => {
      const tokenId = await f.mintNoteTo(seller());
      await f.viem.assertions.revertWithCustomErrorWithArgs(f.marketplace.write.list([tokenId, price], { account: seller().account }), f.marketplace, "MarketplaceNotApproved", [tokenId]);
    });
  });

  describe("updatePrice and cancel", () => {
    it("lets the seller reprice a live listing", async () => {
      const tokenId = await listed();
      const hash = await f.marketplace.write.updatePrice([tokenId, price + 1n], { account: seller().account });
      await f.viem.assertions.emitWithArgs(hash, f.marketplace, "ListingUpdated", [tokenId, getAddress(seller().account.address), price + 1n]);
      assert.deepEqual(await f.marketplace.read.listingOf([tokenId]), [getAddress(seller().account.address), price + 1n]);
      await f.viem.assertions.revertWithCustomError(f.marketplace.write.updatePrice([tokenId, 0n], { account: seller().account }), f.marketplace, "InvalidPrice");
    });

    it("refuses to reprice someone else's, a missing or a stale listing", async () => {
      const tokenId = await listed();
      await f.viem.assertions.revertWithCustomError(f.marketplace.write.updatePrice([tokenId, 1n], { account: other().account }), f.marketplace, "NotSeller");
      await f.viem.assertions.revertWithCustomErrorWithArgs(f.marketplace.write.updatePrice([999n, 1n], { account: seller().account }), f.marketplace, "NotListed", [999n]);
      await f.note.write.transferFrom([seller().account.address, other().account.address, tokenId], { account: seller().account });
      await f.viem.assertions.revertWithCustomErrorWithArgs(f.marketplace.write.updatePrice([tokenId, 1n], { account: seller().account }), f.marketplace, "ListingStale", [tokenId]);
    });

    it("lets only the seller cancel, and emits ListingCancelled", async () => {
      const tokenId = await listed();
      await f.viem.assertions.revertWithCustomError(f.marketplace.write.cancel([tokenId], { account: other().account }), f.marketplace, "NotSeller");
      const hash = await f.marketplace.write.cancel([tokenId], { account: seller().account });
      await f.viem.assertions.emitWithArgs(hash, f.marketplace, "ListingCancelled", [tokenId, getAddress(seller().account.address)]);
      assert.deepEqual(await f.marketplace.read.listingOf([tokenId]), [zeroAddress, 0n]);
      await f.viem.assertions.revertWithCustomErrorWithArgs(f.marketplace.write.cancel([tokenId], { account: seller().account }), f.marketplace, "NotListed", [tokenId]);
    });
  });

  describe("buy", () => {
    it("pays the seller the price less the fee, the fee recipient the fee, and hands over the note", async () => {
      const tokenId = await listed();
      const recipient = f.accounts.feeRecipient.account.address;
      const [sellerBefore, recipientBefore] = await Promise.all([f.dollar.read.balanceOf([seller().account.address]), f.dollar.read.balanceOf([recipient])]);
      const hash = await f.marketplace.write.buy([tokenId, price], { account: buyer().account });
      await f.viem.assertions.emitWithArgs(hash, f.marketplace, "Sold", [tokenId, getAddress(seller().account.address), getAddress(buyer().account.address), price, fee]);
      assert.equal(await f.note.read.ownerOf([tokenId]), getAddress(buyer().account.address));
      assert.equal(await f.dollar.read.balanceOf([seller().account.address]), sellerBefore + price - fee);
      assert.equal(await f.dollar.read.balanceOf([recipient]), recipientBefore + fee);
      assert.equal(await f.dollar.read.balanceOf([f.marketplace.address]), 0n);
      assert.deepEqual(await f.marketplace.read.listingOf([tokenId]), [zeroAddress, 0n]);
    });

    it("refuses a price other than the one the buyer expects", async () => {
      const tokenId = await listed();
      await f.marketplace.write.updatePrice([tokenId, price + 5n], { account: seller().account });
      await f.viem.assertions.revertWithCustomErrorWithArgs(f.marketplace.write.buy([tokenId, price], { account: buyer().account }), f.marketplace, "PriceMismatch", [tokenId, price + 5n, price]);
    });

    it("refuses a note that is not listed", async () => {
      await f.viem.assertions.revertWithCustomErrorWithArgs(f.marketplace.write.buy([3n, price], { account: buyer().account }), f.marketplace, "NotListed", [3n]);
    });

    it("never fills a listing after its note moved, even when it came back to the seller", async () => {
      const tokenId = await listed();
      await f.note.write.transferFrom([seller().account.address, other().account.address, tokenId], { account: seller().account });
      await f.viem.assertions.revertWithCustomErrorWithArgs(f.marketplace.write.buy([tokenId, price], { account: buyer().account }), f.marketplace, "ListingStale", [tokenId]);
      await f.note.write.transferFrom([other().account.address, seller().account.address, tokenId], { account: other().account });
      await f.note.write.setApprovalForAll([f.marketplace.address, true], { account: seller().account });
      assert.deepEqual(await f.marketplace.read.listingOf([tokenId]), [zeroAddress, 0n]);
      await f.viem.assertions.revertWithCustomErrorWithArgs(f.marketplace.write.buy([tokenId, price], { account: buyer().account }), f.marketplace, "ListingStale", [tokenId]);
    });

    it("never fills a listing whose note was repaid and burned", async () => {
      const tokenId = await listed();
      await fund(f, f.accounts.borrower, 2n * DEFAULT_TERMS.principal, f.note.address);
      await f.note.write.repay([tokenId, 2n * DEFAULT_TERMS.principal], { account: f.accounts.borrower.account });
      await f.viem.assertions.revertWithCustomError(f.marketplace.write.buy([tokenId, price], { account: buyer().account }), f.marketplace, "ListingStale");
    });

    it("never fills a listing whose approval was revoked", async () => {
      const tokenId = await listed();
      await f.note.write.approve([zeroAddress, tokenId], { account: seller().account });
      await f.viem.assertions.revertWithCustomError(f.marketplace.write.buy([tokenId, price], { account: buyer().account }), f.note, "ERC721InsufficientApproval");
    });

    it("takes a permit and buys in one transaction", async () => {
      const tokenId = await listed();
      const newcomer = f.wallets[ROLES.firstUser + 3];
      await fund(f, newcomer, price);
      const deadline = (await now(f)) + 600n;
      const sig = await signPermit(f, newcomer, f.marketplace.address, price, deadline);
      await f.marketplace.write.buyWithPermit([tokenId, price, deadline, sig.v, sig.r, sig.s], { account: newcomer.account });
      assert.equal(await f.note.read.ownerOf([tokenId]), getAddress(newcomer.account.address));
      assert.equal(await f.dollar.read.balanceOf([newcomer.account.address]), 0n);
    });

    it("skips the fee transfer when the fee is zero", async () => {
      await f.marketplace.write.setFee([f.accounts.feeRecipient.account.address, 0]);
      const tokenId = await listed();
      const before = await f.dollar.read.balanceOf([seller().account.address]);
      await f.marketplace.write.buy([tokenId, price], { account: buyer().account });
      assert.equal(await f.dollar.read.balanceOf([seller().account.address]), before + price);
    });
  });

  describe("pause and fees", () => {
    it("stops listing, repricing and buying while paused, but not cancelling", async () => {
      const tokenId = await listed();
      await f.marketplace.write.pause();
      const s = { account: seller().account };
      await f.viem.assertions.revertWithCustomError(f.marketplace.write.list([tokenId, price], s), f.marketplace, "EnforcedPause");
      await f.viem.assertions.revertWithCustomError(f.marketplace.write.updatePrice([tokenId, price], s), f.marketplace, "EnforcedPause");
      await f.viem.assertions.revertWithCustomError(f.marketplace.write.buy([tokenId, price], { account: buyer().account }), f.marketplace, "EnforcedPause");
      await f.viem.assertions.revertWithCustomError(
        f.marketplace.write.buyWithPermit([tokenId, price, 0n, 27, `0x${"0".repeat(64)}`, `0x${"0".repeat(64)}`], { account: buyer().account }),
        f.marketplace,
        "EnforcedPause",
      );
      await f.marketplace.write.cancel([tokenId], s);
      await f.marketplace.write.unpause();
      await f.marketplace.write.list([tokenId, price], s);
      assert.deepEqual(await f.marketplace.read.listingOf([tokenId]), [getAddress(seller().account.address), price]);
    });

    it("lets only the pauser pause and only the admin set the fee", async () => {
      const o = { account: other().account };
      await f.viem.assertions.revertWithCustomError(f.marketplace.write.pause(o), f.marketplace, "AccessControlUnauthorizedAccount");
      await f.viem.assertions.revertWithCustomError(f.marketplace.write.unpause(o), f.marketplace, "AccessControlUnauthorizedAccount");
      await f.viem.assertions.revertWithCustomError(f.marketplace.write.setFee([other().account.address, 1], o), f.marketplace, "AccessControlUnauthorizedAccount");
    });

    it("caps the fee at 5% and refuses a zero fee recipient", async () => {
      const hash = await f.marketplace.write.setFee([other().account.address, 500]);
      await f.viem.assertions.emitWithArgs(hash, f.marketplace, "FeeUpdated", [getAddress(other().account.address), 500n]);
      assert.equal(await f.marketplace.read.feeBps(), 500);
      await f.viem.assertions.revertWithCustomErrorWithArgs(f.marketplace.write.setFee([other().account.address, 501]), f.marketplace, "FeeTooHigh", [501n]);
      await f.viem.assertions.revertWithCustomError(f.marketplace.write.setFee([zeroAddress, 1]), f.marketplace, "ZeroAddress");
    });

    it("refuses zero addresses at construction", async () => {
      const a = f.accounts.admin.account.address;
      for (const args of [
        [zeroAddress, f.dollar.address, a, a, 0, 50n],
        [f.note.address, zeroAddress, a, a, 0, 50n],
        [f.note.address, f.dollar.address, zeroAddress, a, 0, 50n],
      ] as const) {
        await f.viem.assertions.revertWithCustomError(f.viem.deployContract("NoteMarketplace", [...args]), f.marketplace, "ZeroAddress");
      }
    });
  });
});
