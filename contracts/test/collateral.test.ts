import assert from "node:assert/strict";
import { before, beforeEach, describe, it } from "node:test";
import { getAddress, zeroAddress } from "viem";
import { DEFAULT_TERMS, ROLES } from "./fixtures";
import { deployCollateralFixture, type CollateralFixture } from "./collateralFixture";

const json = (uri: string) => JSON.parse(Buffer.from(uri.replace("data:application/json;base64,", ""), "base64").toString("utf8"));

describe("NFT collateral", () => {
  let f: CollateralFixture;
  let restore: () => Promise<void>;
  const P = DEFAULT_TERMS.principal;

  before(async () => {
    f = await deployCollateralFixture();
    const snapshot = await f.networkHelpers.takeSnapshot();
    restore = () => snapshot.restore();
  });
  beforeEach(async () => restore());

  const user = (i: number) => f.wallets[ROLES.firstUser + i];
  const borrower = () => getAddress(f.accounts.borrower.account.address);
  const as = (wallet: { account: { address: `0x${string}` } }) => ({ account: wallet.account as never });

  describe("the allow-list", () => {
    it("is managed by the admin, with events, and keeps a collection's index when it is allowed again", async () => {
      const other = await f.viem.deployContract("BaselineERC721");
      const allowed = await f.escrow.write.allowCollection([other.address]);
      await f.viem.assertions.emitWithArgs(allowed, f.escrow, "CollectionAllowed", [getAddress(other.address), 2n]);
      assert.equal(await f.escrow.read.isCollectionAllowed([other.address]), true);
      assert.equal(await f.escrow.read.collectionAt([2n]), getAddress(other.address));
      const disallowed = await f.escrow.write.disallowCollection([other.address]);
      await f.viem.assertions.emitWithArgs(disallowed, f.escrow, "CollectionDisallowed", [getAddress(other.address)]);
      assert.equal(await f.escrow.read.isCollectionAllowed([other.address]), false);
      await f.viem.assertions.emitWithArgs(f.escrow.write.allowCollection([other.address]), f.escrow, "CollectionAllowed", [getAddress(other.address), 2n]);
      assert.equal(await f.escrow.read.collectionCount(), 2);
    });

    it("refuses anyone but the admin, even the originator", async () => {
      const other = await f.viem.deployContract("BaselineERC721");
      for (const wallet of [f.accounts.originator, user(0), f.accounts.borrower]) {
        await f.viem.assertions.revertWithCustomError(f.escrow.write.allowCollection([other.address], as(wallet)), f.escrow, "AccessControlUnauthorizedAccount");
        await f.viem.assertions.revertWithCustomError(f.escrow.write.disallowCollection([f.art.address], as(wallet)), f.escrow, "AccessControlUnauthorizedAccount");
      }
    });

    it("refuses the zero address, an address without code, the note itself, its vault, the escrow and the stablecoin", async () => {
      await f.viem.assertions.revertWithCustomError(f.escrow.write.allowCollection([zeroAddress]), f.escrow, "ZeroAddress");
      for (const address of [user(0).account.address, f.note.address, f.vault.address, f.escrow.address, f.dollar.address]) {
        await f.viem.assertions.revertWithCustomErrorWithArgs(f.escrow.write.allowCollection([address]), f.escrow, "InvalidCollection", [getAddress(address)]);
      }
    });

    it("refuses to disallow a collection that is not allowed", async () => {
      await f.viem.assertions.revertWithCustomErrorWithArgs(f.escrow.write.disallowCollection([f.dollar.address]), f.escrow, "CollectionNotAllowed", [getAddress(f.dollar.address)]);
    });

    it("registers at most 255 collections", async () => {
      const count = Number(await f.escrow.read.collectionCount());
      for (let i = count; i < 255; i++) await f.escrow.write.allowCollection([(await f.viem.deployContract("BaselineERC721")).address]);
      const last = await f.viem.deployContract("BaselineERC721");
      await f.viem.assertions.revertWithCustomError(f.escrow.write.allowCollection([last.address]), f.escrow, "TooManyCollections");
      // A registered collection can still be allowed again.
      await f.escrow.write.disallowCollection([f.art.address]);
      await f.escrow.write.allowCollection([f.art.address]);
    });
  });

  describe("originateWithCollateral", () => {
    it("escrows the piece, funds the borrower and mints the note in one transaction", async () => {
      const before = await f.dollar.read.balanceOf([borrower()]);
      const hash = await f.note.write.originateWithCollateral([7n, borrower(), P, DEFAULT_TERMS.rateBps, DEFAULT_TERMS.termMonths, f.art.address, 2n], as(f.accounts.originator));
      await f.viem.assertions.emitWithArgs(hash, f.escrow, "CollateralLocked", [7n, getAddress(f.art.address), 2n, borrower()]);
      await f.viem.assertions.emitWithArgs(hash, f.note, "LoanOriginated", [7n, borrower(), P, 1200n, 12n, (await f.publicClient.getBlock()).timestamp]);
      assert.equal(await f.art.read.ownerOf([2n]), getAddress(f.escrow.address));
      assert.equal(await f.dollar.read.balanceOf([borrower()]), before + P);
      assert.equal(await f.note.read.ownerOf([7n]), getAddress(f.accounts.treasury.account.address));
      assert.deepEqual(await f.escrow.read.collateralOf([7n]), [getAddress(f.art.address), 2n, borrower()]);
      assert.equal((await f.note.read.loanOf([7n])).pledged, true);
    });

    it("works with a single approval of the piece", async () => {
      await f.art.write.setApprovalForAll([f.escrow.address, false], as(f.accounts.borrower));
      await f.art.write.approve([f.escrow.address, 1n], as(f.accounts.borrower));
      await f.originateSecured(1n);
      assert.equal(await f.art.read.ownerOf([1n]), getAddress(f.escrow.address));
    });

    it("keeps a token id above 96 bits whole", async () => {
      const big = await f.viem.deployContract("BaselineERC721");
      const id = 2n ** 255n + 12345n;
      await big.write.mint([borrower(), id]);
      await big.write.setApprovalForAll([f.escrow.address, true], as(f.accounts.borrower));
      await f.escrow.write.allowCollection([big.address]);
      const note = await f.originateSecured(id, big.address);
      assert.deepEqual(await f.escrow.read.collateralOf([note]), [getAddress(big.address), id, borrower()]);
      assert.equal(json(await f.note.read.tokenURI([note])).attributes.at(-1).value, id.toString());
      await f.note.write.repay([note, 2n * P], as(f.accounts.borrower));
      assert.equal(await big.read.ownerOf([id]), borrower());
      assert.deepEqual(await f.escrow.read.collateralOf([note]), [zeroAddress, 0n, zeroAddress]);
    });

    it("reverts, changing nothing, for a collection that is not allowed", async () => {
      await f.escrow.write.disallowCollection([f.art.address]);
      await f.viem.assertions.revertWithCustomErrorWithArgs(f.originateSecured(1n, f.art.address, 5n), f.escrow, "CollectionNotAllowed", [getAddress(f.art.address)]);
      assert.equal(await f.art.read.ownerOf([1n]), borrower());
      assert.equal((await f.note.read.ownershipOf([5n]))[0], zeroAddress);
    });

    it("reverts when the borrower does not hold the piece (anymore)", async () => {
      await f.art.write.transferFrom([borrower(), user(0).account.address, 1n], as(f.accounts.borrower));
      await f.viem.assertions.revertWithCustomErrorWithArgs(f.originateSecured(1n), f.escrow, "CollateralNotHeld", [getAddress(f.art.address), 1n, borrower()]);
      await f.viem.assertions.revertWithCustomErrorWithArgs(f.originateSecured(99n), f.escrow, "CollateralNotHeld", [getAddress(f.art.address), 99n, borrower()]);
    });

    it("reverts when the borrower has not approved the escrow", async () => {
      await f.art.write.setApprovalForAll([f.escrow.address, false], as(f.accounts.borrower));
      await f.viem.assertions.revertWithCustomErrorWithArgs(f.originateSecured(1n), f.escrow, "CollateralNotApproved", [getAddress(f.art.address), 1n, borrower()]);
      assert.equal(await f.art.read.ownerOf([1n]), borrower());
    });

    it("cannot pledge a piece already in escrow for another loan", async () => {
      await f.originateSecured(1n);
      await f.viem.assertions.revertWithCustomErrorWithArgs(f.originateSecured(1n), f.escrow, "CollateralNotHeld", [getAddress(f.art.address), 1n, borrower()]);
    });

    it("keeps the checks of originate: roles, pause, used ids, terms", async () => {
      const args = (tokenId: bigint, principal: bigint = P) => [tokenId, borrower(), principal, 1200, 12, f.art.address, 1n] as const;
      await f.viem.assertions.revertWithCustomError(f.note.write.originateWithCollateral(args(1n), as(user(0))), f.note, "AccessControlUnauthorizedAccount");
      await f.viem.assertions.revertWithCustomErrorWithArgs(f.note.write.originateWithCollateral(args(1n, 1n), as(f.accounts.originator)), f.note, "InvalidTerms", [1n, 1200n, 12n]);
      await f.note.write.pause();
      await f.viem.assertions.revertWithCustomError(f.note.write.originateWithCollateral(args(1n), as(f.accounts.originator)), f.note, "EnforcedPause");
      await f.note.write.unpause();
      await f.originateSecured(2n, f.art.address, 1n);
      await f.viem.assertions.revertWithCustomErrorWithArgs(f.note.write.originateWithCollateral(args(1n), as(f.accounts.originator)), f.note, "LoanAlreadyExists", [1n]);
    });

    it("leaves loans already secured by a collection untouched when it is disallowed", async () => {
      const note = await f.originateSecured(1n);
      await f.escrow.write.disallowCollection([f.art.address]);
      await f.note.write.repay([note, 2n * P], as(f.accounts.borrower));
      assert.equal(await f.art.read.ownerOf([1n]), borrower());
    });

    it("names the collateral in the note's metadata", async () => {
      const note = await f.originateSecured(3n);
      const attributes = json(await f.note.read.tokenURI([note])).attributes as { trait_type: string; value: unknown }[];
      assert.deepEqual(attributes.slice(-2), [
        { trait_type: "Collateral collection", value: f.art.address.toLowerCase() },
        { trait_type: "Collateral token id", value: "3" },
      ]);
      await f.note.write.originate([77n, borrower(), P, 1200, 12], as(f.accounts.originator));
      assert.equal(JSON.stringify(json(await f.note.read.tokenURI([77n]))).includes("Collateral"), false);
    });
  });

  describe("repayment", () => {
    it("returns the piece with the final payment, in the transaction that burns the note", async () => {
      const note = await f.originateSecured(1n);
      const hash = await f.note.write.repay([note, 2n * P], as(f.accounts.borrower));
      await f.viem.assertions.emitWithArgs(hash, f.escrow, "CollateralReturned", [note, getAddress(f.art.address), 1n, borrower()]);
      await f.viem.assertions.emitWithArgs(hash, f.note, "LoanRepaid", [note]);
      assert.equal(await f.art.read.ownerOf([1n]), borrower());
      assert.equal((await f.note.read.ownershipOf([note]))[0], zeroAddress);
      assert.deepEqual(await f.escrow.read.collateralOf([note]), [zeroAddress, 0n, zeroAddress]);
    });

    it("keeps the piece in escrow through partial payments and returns it at the early payoff, whoever pays", async () => {
      const note = await f.originateSecured(1n);
      const installment = await f.note.read.monthlyPayment([note]);
      await f.note.write.repay([note, installment], as(f.accounts.borrower));
      assert.equal(await f.art.read.ownerOf([1n]), getAddress(f.escrow.address));
      await f.networkHelpers.time.increase(45 * 86_400);
      const payoff = await f.note.read.payoffAmount([note]);
      await f.dollar.write.mint([user(1).account.address, payoff]);
      await f.dollar.write.approve([f.note.address, payoff], as(user(1)));
      await f.note.write.repay([note, payoff], as(user(1)));
      assert.equal(await f.art.read.ownerOf([1n]), borrower());
    });

    it("returns the piece when a defaulted loan is paid off before anyone claims it", async () => {
      const note = await f.originateSecured(1n);
      await f.defaultLoan(note);
      await f.note.write.repay([note, 10n * P], as(f.accounts.borrower));
      assert.equal(await f.art.read.ownerOf([1n]), borrower());
      await f.viem.assertions.revertWithCustomErrorWithArgs(f.escrow.write.claimCollateral([note, user(0).account.address], as(f.accounts.treasury)), f.escrow, "NoCollateral", [note]);
    });

    it("credits the holder as for any note", async () => {
      const note = await f.originateSecured(1n);
      await f.note.write.transferFrom([f.accounts.treasury.account.address, user(0).account.address, note], as(f.accounts.treasury));
      const payoff = await f.note.read.payoffAmount([note]);
      await f.note.write.repay([note, payoff], as(f.accounts.borrower));
      assert.equal(await f.note.read.creditsOf([user(0).account.address]), payoff);
    });
  });

  describe("claimCollateral", () => {
    it("gives the holder the piece after a default; the note is settled and burned", async () => {
      const holder = user(0);
      const note = await f.originateSecured(2n);
      await f.note.write.transferFrom([f.accounts.treasury.account.address, holder.account.address, note], as(f.accounts.treasury));
      await f.defaultLoan(note);
      const to = user(1).account.address;
      const hash = await f.escrow.write.claimCollateral([note, to], as(holder));
      await f.viem.assertions.emitWithArgs(hash, f.escrow, "CollateralClaimed", [note, getAddress(f.art.address), 2n, getAddress(to)]);
      assert.equal(await f.art.read.ownerOf([2n]), getAddress(to));
      assert.equal((await f.note.read.ownershipOf([note]))[0], zeroAddress);
      assert.equal((await f.note.read.loanOf([note])).status, 3);
      await f.viem.assertions.revertWithCustomErrorWithArgs(f.note.write.repay([note, P], as(f.accounts.borrower)), f.note, "LoanNotActive", [note]);
      await f.viem.assertions.revertWithCustomErrorWithArgs(f.escrow.write.claimCollateral([note, to], as(holder)), f.escrow, "NoCollateral", [note]);
    });

    it("gives the depositor of a vaulted note the piece, and nobody else", async () => {
      const depositor = user(0);
      const note = await f.originateSecured(2n);
      await f.note.write.transferFrom([f.accounts.treasury.account.address, depositor.account.address, note], as(f.accounts.treasury));
      await f.note.write.safeTransferFrom([depositor.account.address, f.vault.address, note], as(depositor));
      await f.defaultLoan(note);
      for (const wallet of [f.accounts.treasury, f.accounts.borrower, user(1), f.accounts.admin]) {
        await f.viem.assertions.revertWithCustomErrorWithArgs(f.escrow.write.claimCollateral([note, wallet.account.address], as(wallet)), f.escrow, "NotEntitled", [
          note,
          getAddress(wallet.account.address),
        ]);
      }
      await f.escrow.write.claimCollateral([note, depositor.account.address], as(depositor));
      assert.equal(await f.art.read.ownerOf([2n]), getAddress(depositor.account.address));
    });

    it("refuses while the loan is active, to anyone", async () => {
      const note = await f.originateSecured(1n);
      for (const wallet of [f.accounts.treasury, f.accounts.borrower, f.accounts.admin]) {
        await f.viem.assertions.revertWithCustomErrorWithArgs(f.escrow.write.claimCollateral([note, wallet.account.address], as(wallet)), f.escrow, "CollateralNotClaimable", [note]);
      }
    });

    it("refuses a note without collateral, the zero address, the note contract and the escrow as receivers", async () => {
      await f.note.write.originate([5n, borrower(), P, 1200, 12], as(f.accounts.originator));
      await f.viem.assertions.revertWithCustomErrorWithArgs(f.escrow.write.claimCollateral([5n, borrower()], as(f.accounts.treasury)), f.escrow, "NoCollateral", [5n]);
      const note = await f.originateSecured(1n);
      await f.defaultLoan(note);
      for (const to of [zeroAddress, f.note.address, f.escrow.address]) {
        await f.viem.assertions.revertWithCustomErrorWithArgs(f.escrow.write.claimCollateral([note, to], as(f.accounts.treasury)), f.escrow, "InvalidCollateralRecipient", [getAddress(to)]);
      }
    });

    it("refuses a receiver contract that does not accept ERC-721s (safe transfer)", async () => {
      const note = await f.originateSecured(1n);
      await f.defaultLoan(note);
      await f.viem.assertions.revertWithCustomError(f.escrow.write.claimCollateral([note, f.dollar.address], as(f.accounts.treasury)), f.art, "ERC721InvalidReceiver");
    });

    it("lapses listings of the note (the burn is a change)", async () => {
      const note = await f.originateSecured(1n);
      await f.defaultLoan(note);
      const [, before] = await f.note.read.ownershipOf([note]);
      await f.escrow.write.claimCollateral([note, f.accounts.treasury.account.address], as(f.accounts.treasury));
      assert.equal((await f.note.read.ownershipOf([note]))[1], before + 1);
    });
  });

  describe("the escrow's boundary", () => {
    it("locks and releases only for LoanNote", async () => {
      const note = await f.originateSecured(1n);
      for (const wallet of [f.accounts.admin, f.accounts.originator, f.accounts.borrower, user(0)]) {
        const caller = getAddress(wallet.account.address);
        await f.viem.assertions.revertWithCustomErrorWithArgs(f.escrow.write.lock([99n, f.art.address, 2n, borrower()], as(wallet)), f.escrow, "NotLoanNote", [caller]);
        await f.viem.assertions.revertWithCustomErrorWithArgs(f.escrow.write.release([note], as(wallet)), f.escrow, "NotLoanNote", [caller]);
      }
      assert.equal(await f.art.read.ownerOf([1n]), getAddress(f.escrow.address));
      assert.equal(await f.art.read.ownerOf([2n]), borrower());
    });

    it("lets only the escrow settle a loan by a claim, even a defaulted one and even for the admin or the holder", async () => {
      const note = await f.originateSecured(1n);
      await f.defaultLoan(note);
      const treasury = f.accounts.treasury.account.address;
      for (const wallet of [f.accounts.admin, f.accounts.originator, f.accounts.treasury, f.accounts.borrower]) {
        await f.viem.assertions.revertWithCustomErrorWithArgs(f.note.write.settleByClaim([note, treasury], as(wallet)), f.note, "NotEscrow", [getAddress(wallet.account.address)]);
      }
      assert.equal(await f.note.read.ownerOf([note]), getAddress(treasury));
    });

    it("takes the allow-list's admins from LoanNote's DEFAULT_ADMIN_ROLE, as they change", async () => {
      const other = await f.viem.deployContract("BaselineERC721");
      const role = await f.note.read.DEFAULT_ADMIN_ROLE();
      await f.viem.assertions.revertWithCustomErrorWithArgs(f.escrow.write.allowCollection([other.address], as(user(0))), f.escrow, "AccessControlUnauthorizedAccount", [
        getAddress(user(0).account.address),
        role,
      ]);
      await f.note.write.grantRole([role, user(0).account.address]);
      await f.escrow.write.allowCollection([other.address], as(user(0)));
      await f.note.write.revokeRole([role, user(0).account.address]);
      await f.viem.assertions.revertWithCustomError(f.escrow.write.disallowCollection([other.address], as(user(0))), f.escrow, "AccessControlUnauthorizedAccount");
      assert.equal(await f.escrow.read.isCollectionAllowed([other.address]), true);
    });

    it("keeps token ids on both sides of 2^80 - 1 (the pledge's packed width) whole", async () => {
      const big = await f.viem.deployContract("BaselineERC721");
      await big.write.setApprovalForAll([f.escrow.address, true], as(f.accounts.borrower));
      await f.escrow.write.allowCollection([big.address]);
      for (const id of [2n ** 80n - 2n, 2n ** 80n - 1n, 2n ** 80n]) {
        await big.write.mint([borrower(), id]);
        const note = await f.originateSecured(id, big.address);
        assert.deepEqual(await f.escrow.read.collateralOf([note]), [getAddress(big.address), id, borrower()]);
        await f.note.write.repay([note, 2n * P], as(f.accounts.borrower));
        assert.equal(await big.read.ownerOf([id]), borrower());
      }
    });
  });
});
