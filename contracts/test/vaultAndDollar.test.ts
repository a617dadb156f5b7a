import assert from "node:assert/strict";
import { before, beforeEach, describe, it } from "node:test";
import { getAddress, zeroAddress } from "viem";
import { DEFAULTS } from "../params";
import { ROLES, deployLoanNoteFixture, type LoanNoteFixture } from "./fixtures";
import { DAY, fund, now, signPermit } from "./helpers";

describe("NoteVault and TestDollar", () => {
  let f: LoanNoteFixture;
  let restore: () => Promise<void>;

  before(async () => {
    f = await deployLoanNoteFixture();
    const snapshot = await f.networkHelpers.takeSnapshot();
    restore = () => snapshot.restore();
  });
  beforeEach(async () => restore());

  const holder = () => f.wallets[ROLES.firstUser];
  const other = () => f.wallets[ROLES.firstUser + 1];

  describe("NoteVault", () => {
    it("records the depositor of a note sent by safe transfer and emits Deposited", async () => {
      const tokenId = await f.mintNoteTo(holder());
      const hash = await f.note.write.safeTransferFrom([holder().account.address, f.vault.address, tokenId], { account: holder().account });
      await f.viem.assertions.emitWithArgs(hash, f.vault, "Deposited", [tokenId, getAddress(holder().account.address)]);
      assert.equal(await f.vault.read.depositorOf([tokenId]), getAddress(holder().account.address));
      assert.equal(await f.note.read.ownerOf([tokenId]), getAddress(f.vault.address));
    });

    it("takes a deposit by call once the vault is approved", async () => {
      const tokenId = await f.mintNoteTo(holder());
      await f.note.write.approve([f.vault.address, tokenId], { account: holder().account });
      const hash = await f.vault.write.deposit([tokenId], { account: holder().account });
      await f.viem.assertions.emitWithArgs(hash, f.vault, "Deposited", [tokenId, getAddress(holder().account.address)]);
      assert.equal(await f.vault.read.depositorOf([tokenId]), getAddress(holder().account.address));
    });

    it("records the depositor of a note sent with a plain transferFrom, credits its repayments to them and lets them withdraw it", async () => {
      const tokenId = await f.mintNoteTo(holder());
      const hash = await f.note.write.transferFrom([holder().account.address, f.vault.address, tokenId], { account: holder().account });
      await f.viem.assertions.emitWithArgs(hash, f.vault, "Deposited", [tokenId, getAddress(holder().account.address)]);
      assert.equal(await f.vault.read.depositorOf([tokenId]), getAddress(holder().account.address));

      await fund(f, f.accounts.borrower, 5_000_000n, f.note.address);
      const repayment = await f.note.write.repay([tokenId, 5_000_000n], { account: f.accounts.borrower.account });
      await f.viem.assertions.emitWithArgs(repayment, f.note, "Repaid", [tokenId, getAddress(f.accounts.borrower.account.address), getAddress(holder().account.address), 5_000_000n, 5_000_000n]);
      assert.equal(await f.note.read.creditsOf([holder().account.address]), 5_000_000n);
      assert.equal(await f.note.read.creditsOf([zeroAddress]), 0n);
      assert.equal(await f.note.read.creditsOf([f.vault.address]), 0n);

      await f.vault.write.withdraw([tokenId, holder().account.address], { account: holder().account });
      assert.equal(await f.note.read.ownerOf([tokenId]), getAddress(holder().account.address));
    });

    it("records the owner, not the approved operator who sent it, as the depositor", async () => {
      const tokenId = await f.mintNoteTo(holder());
      await f.note.write.approve([other().account.address, tokenId], { account: holder().account });
      await f.note.write.transferFrom([holder().account.address, f.vault.address, tokenId], { account: other().account });
      assert.equal(await f.vault.read.depositorOf([tokenId]), getAddress(holder().account.address));
      await f.viem.assertions.revertWithCustomError(f.vault.write.withdraw([tokenId, other().account.address], { account: other().account }), f.vault, "NotDepositor");
    });

    it("takes a deposit record from LoanNote only", async () => {
      await f.viem.assertions.revertWithCustomErrorWithArgs(f.vault.write.recordDeposit([1n, holder().account.address], { account: holder().account }), f.vault, "UnsupportedToken", [
        getAddress(holder().account.address),
      ]);
    });

    it("refuses a deposit record naming no depositor (a mint to the vault), so nothing is credited to the zero address", async () => {
      // LoanNote never mints to the vault (the treasury cannot be the vault), so the guard is reached through
      // a vault whose note contract is a plain account.
      const vault = await f.viem.deployContract("NoteVault", [holder().account.address]);
      await f.viem.assertions.revertWithCustomErrorWithArgs(vault.write.recordDeposit([1n, zeroAddress], { account: holder().account }), vault, "InvalidDepositor", [zeroAddress]);
      const hash = await vault.write.recordDeposit([1n, other().account.address], { account: holder().account });
      await f.viem.assertions.emitWithArgs(hash, vault, "Deposited", [1n, getAddress(other().account.address)]);
      assert.equal(await vault.read.depositorOf([1n]), getAddress(other().account.address));
    });

    it("refuses a deposit by call of someone else's note", async () => {
      const tokenId = await f.mintNoteTo(holder());
      await f.viem.assertions.revertWithCustomError(f.vault.write.deposit([tokenId], { account: other().account }), f.note, "ERC721InsufficientApproval");
    });

    it("lets only the depositor withdraw, to any address but zero or the vault", async () => {
      const tokenId = await f.mintNoteTo(holder());
      await f.note.write.safeTransferFrom([holder().account.address, f.vault.address, tokenId], { account: holder().account });
      await f.viem.assertions.revertWithCustomErrorWithArgs(f.vault.write.withdraw([tokenId, other().account.address], { account: other().account }), f.vault, "NotDepositor", [
        tokenId,
        getAddress(other().account.address),
      ]);
      for (const to of [zeroAddress, f.vault.address]) {
        await f.viem.assertions.revertWithCustomError(f.vault.write.withdraw([tokenId, to], { account: holder().account }), f.vault, "InvalidRecipient");
      }
      const hash = await f.vault.write.withdraw([tokenId, other().account.address], { account: holder().account });
      await f.viem.assertions.emitWithArgs(hash, f.vault, "Withdrawn", [tokenId, getAddress(holder().account.address), getAddress(other().account.address)]);
      assert.equal(await f.note.read.ownerOf([tokenId]), getAddress(other().account.address));
      assert.equal(await f.vault.read.depositorOf([tokenId]), zeroAddress);
    });

    it("refuses tokens of any other ERC-721 contract", async () => {
      const foreign = await f.viem.deployContract("BaselineERC721");
      await foreign.write.mint([holder().account.address, 1n]);
      await f.viem.assertions.revertWithCustomErrorWithArgs(
        foreign.write.safeTransferFrom([holder().account.address, f.vault.address, 1n], { account: holder().account }),
        f.vault,
        "UnsupportedToken",
        [getAddress(foreign.address)],
      );
    });
  });

  describe("TestDollar", () => {
    it("is Test Dollar (tUSD) with 6 decimals", async () => {
      assert.deepEqual([await f.dollar.read.name(), await f.dollar.read.symbol(), await f.dollar.read.decimals()], ["Test Dollar", "tUSD", 6]);
    });

    it("lets only the minter mint", async () => {
      await f.dollar.write.mint([holder().account.address, 5n]);
      assert.equal(await f.dollar.read.balanceOf([holder().account.address]), 5n);
      await f.viem.assertions.revertWithCustomError(f.dollar.write.mint([holder().account.address, 5n], { account: holder().account }), f.dollar, "AccessControlUnauthorizedAccount");
    });

    it("drips the faucet amount once per cooldown per address", async () => {
      const h = { account: holder().account };
      await f.viem.assertions.emitWithArgs(f.dollar.write.faucet(h), f.dollar, "FaucetUsed", [getAddress(holder().account.address), DEFAULTS.faucetAmount]);
      const availableAt = (await now(f)) + DEFAULTS.faucetCooldownSeconds;
      await f.viem.assertions.revertWithCustomErrorWithArgs(f.dollar.write.faucet(h), f.dollar, "FaucetCooldown", [getAddress(holder().account.address), availableAt]);
      await f.dollar.write.faucet({ account: other().account });
      await f.networkHelpers.time.increaseTo(availableAt);
      await f.dollar.write.faucet(h);
      assert.equal(await f.dollar.read.balanceOf([holder().account.address]), 2n * DEFAULTS.faucetAmount);
    });

    it("lets the admin reconfigure or switch off the faucet", async () => {
      await f.viem.assertions.emitWithArgs(f.dollar.write.setFaucet([7n, DAY]), f.dollar, "FaucetConfigured", [7n, DAY]);
      await f.dollar.write.faucet({ account: holder().account });
      assert.equal(await f.dollar.read.balanceOf([holder().account.address]), 7n);
      await f.dollar.write.setFaucet([0n, DAY]);
      await f.viem.assertions.revertWithCustomError(f.dollar.write.faucet({ account: other().account }), f.dollar, "FaucetDisabled");
      await f.viem.assertions.revertWithCustomError(f.dollar.write.setFaucet([1n, 1n], { account: holder().account }), f.dollar, "AccessControlUnauthorizedAccount");
    });

    it("accepts ERC-2612 permits", async () => {
      await fund(f, holder(), 10n);
      const deadline = (await now(f)) + 60n;
      const sig = await signPermit(f, holder(), other().account.address, 10n, deadline);
      await f.dollar.write.permit([holder().account.address, other().account.address, 10n, deadline, sig.v, sig.r, sig.s]);
      assert.equal(await f.dollar.read.allowance([holder().account.address, other().account.address]), 10n);
    });
  });
});
