import assert from "node:assert/strict";
import { before, beforeEach, describe, it } from "node:test";
import { encodeFunctionData, getAddress, maxUint256, toFunctionSelector, zeroAddress } from "viem";
import { DEFAULTS } from "../params";
import { DEFAULT_TERMS, ROLES, deployLoanNoteFixture, type LoanNoteFixture } from "./fixtures";

const REENTRANT = toFunctionSelector("ReentrancyGuardReentrantCall()");

describe("reentrancy", () => {
  let f: LoanNoteFixture;
  let restore: () => Promise<void>;

  before(async () => {
    f = await deployLoanNoteFixture();
    const snapshot = await f.networkHelpers.takeSnapshot();
    restore = () => snapshot.restore();
  });
  beforeEach(async () => restore());

  const seller = () => f.wallets[ROLES.firstUser];

  describe("through a malicious ERC-721 receiver", () => {
    it("cannot buy a second note while the marketplace hands it the first", async () => {
      const attacker = await f.viem.deployContract("MaliciousReceiver");
      const price = 500_000_000n;
      const [first, second] = [await f.mintNoteTo(seller()), await f.mintNoteTo(seller())];
      await f.note.write.setApprovalForAll([f.marketplace.address, true], { account: seller().account });
      await f.marketplace.write.list([first, price], { account: seller().account });
      await f.marketplace.write.list([second, price], { account: seller().account });
      await f.dollar.write.mint([attacker.address, 2n * price]);
      const approve = encodeFunctionData({ abi: f.dollar.abi, functionName: "approve", args: [f.marketplace.address, maxUint256] });
      await attacker.write.execute([f.dollar.address, approve]);
      await attacker.write.arm([f.marketplace.address, encodeFunctionData({ abi: f.marketplace.abi, functionName: "buy", args: [second, price] })]);
      await attacker.write.execute([f.marketplace.address, encodeFunctionData({ abi: f.marketplace.abi, functionName: "buy", args: [first, price] })]);
      assert.equal(await attacker.read.attempted(), true);
      assert.equal(await attacker.read.succeeded(), false);
      assert.equal(await attacker.read.returned(), REENTRANT);
      assert.equal(await f.note.read.ownerOf([first]), getAddress(attacker.address));
      assert.equal(await f.note.read.ownerOf([second]), getAddress(seller().account.address));
      assert.equal(await f.dollar.read.balanceOf([attacker.address]), price);
    });

    it("cannot withdraw a note again from the vault while receiving it", async () => {
      const attacker = await f.viem.deployContract("MaliciousReceiver");
      const tokenId = await f.mintNoteTo(attacker.address);
      await attacker.write.execute([f.note.address, encodeFunctionData({ abi: f.note.abi, functionName: "safeTransferFrom", args: [attacker.address, f.vault.address, tokenId] })]);
      await attacker.write.arm([f.vault.address, encodeFunctionData({ abi: f.vault.abi, functionName: "withdraw", args: [tokenId, seller().account.address] })]);
      await attacker.write.execute([f.vault.address, encodeFunctionData({ abi: f.vault.abi, functionName: "withdraw", args: [tokenId, attacker.address] })]);
      assert.equal(await attacker.read.returned(), REENTRANT);
      assert.equal(await f.note.read.ownerOf([tokenId]), getAddress(attacker.address));
    });

    it("sees its own failed call bubble up when it does not swallow it", async () => {
      const attacker = await f.viem.deployContract("MaliciousReceiver");
      await f.viem.assertions.revertWithCustomError(attacker.write.execute([f.note.address, encodeFunctionData({ abi: f.note.abi, functionName: "withdrawCredits" })]), f.note, "NothingToWithdraw");
    });
  });

  describe("through a malicious ERC-20", () => {
    async function evilWorld() {
      const token = await f.viem.deployContract("MaliciousToken");
      const { admin, treasury, originator, borrower } = f.accounts;
      const note = await f.viem.deployContract("LoanNote", [
        token.address,
        admin.account.address,
        treasury.account.address,
        0n,
        DEFAULTS.lateFeeGracePeriodSeconds,
        DEFAULTS.lateFeeBps,
        DEFAULTS.defaultAfterDays,
        zeroAddress,
      ]);
      const marketplace = await f.viem.deployContract("NoteMarketplace", [note.address, token.address, admin.account.address, f.accounts.feeRecipient.account.address, 100, 50n]);
      await note.write.grantRole([await note.read.ORIGINATOR_ROLE(), originator.account.address]);
      await token.write.mint([treasury.account.address, 10n * DEFAULT_TERMS.principal]);
      await token.write.approve([note.address, maxUint256], { account: treasury.account });
      await note.write.originate([1n, borrower.account.address, DEFAULT_TERMS.principal, 1200, 12], { account: originator.account });
      await token.write.approve([note.address, maxUint256], { account: borrower.account });
      return { token, note, marketplace };
    }

    it("cannot withdraw credits twice while the note contract pays it out", async () => {
      const { token, note } = await evilWorld();
      await note.write.repay([1n, 100_000_000n], { account: f.accounts.borrower.account });
      await token.write.arm([note.address, encodeFunctionData({ abi: note.abi, functionName: "withdrawCredits" })]);
      await note.write.withdrawCredits({ account: f.accounts.treasury.account });
      assert.equal(await token.read.returned(), REENTRANT);
      assert.equal(await token.read.balanceOf([note.address]), 0n);
      assert.equal(await note.read.creditsOf([f.accounts.treasury.account.address]), 0n);
    });

    it("cannot repay again in the middle of a repayment, nor originate in the middle of an origination", async () => {
      const { token, note } = await evilWorld();
      await token.write.arm([note.address, encodeFunctionData({ abi: note.abi, functionName: "repay", args: [1n, 1n] })]);
      await note.write.repay([1n, 100_000_000n], { account: f.accounts.borrower.account });
      assert.equal(await token.read.returned(), REENTRANT);
      assert.equal((await note.read.loanOf([1n])).repaid, 100_000_000n);
      // The token even holds the originator role, so only the guard stands in its way.
      await note.write.grantRole([await note.read.ORIGINATOR_ROLE(), token.address]);
      await token.write.arm([note.address, encodeFunctionData({ abi: note.abi, functionName: "originate", args: [3n, seller().account.address, 1_000_000n, 0, 1] })]);
      await note.write.originate([2n, f.accounts.borrower.account.address, 1_000_000n, 0, 1], { account: f.accounts.originator.account });
      assert.equal(await token.read.returned(), REENTRANT);
      await f.viem.assertions.revertWithCustomError(note.read.loanOf([3n]), note, "LoanNotFound");
    });

    it("cannot buy again while the marketplace moves its money", async () => {
      const { token, note, marketplace } = await evilWorld();
      const { treasury } = f.accounts;
      await note.write.originate([2n, f.accounts.borrower.account.address, 1_000_000n, 0, 1], { account: f.accounts.originator.account });
      await note.write.setApprovalForAll([marketplace.address, true], { account: treasury.account });
      await marketplace.write.list([1n, 1_000n], { account: treasury.account });
      await marketplace.write.list([2n, 1_000n], { account: treasury.account });
      const buyer = seller();
      await token.write.mint([buyer.account.address, 10_000n]);
      await token.write.approve([marketplace.address, maxUint256], { account: buyer.account });
      await token.write.arm([marketplace.address, encodeFunctionData({ abi: marketplace.abi, functionName: "buy", args: [2n, 1_000n] })]);
      await marketplace.write.buy([1n, 1_000n], { account: buyer.account });
      assert.equal(await token.read.returned(), REENTRANT);
      assert.equal(await note.read.ownerOf([2n]), getAddress(treasury.account.address));
    });
  });
});
