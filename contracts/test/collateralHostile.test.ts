import assert from "node:assert/strict";
import { before, beforeEach, describe, it } from "node:test";
import { encodeFunctionData, getAddress, toFunctionSelector, zeroAddress } from "viem";
import { DEFAULT_TERMS, ROLES } from "./fixtures";
import { deployCollateralFixture, type CollateralFixture } from "./collateralFixture";

const REENTRANT = toFunctionSelector("ReentrancyGuardReentrantCall()");

/** Hostile collections, allowed by a careless admin: none of them can take another loan's piece or block a repayment. */
describe("NFT collateral against hostile collections", () => {
  let f: CollateralFixture;
  let restore: () => Promise<void>;
  const P = DEFAULT_TERMS.principal;

  before(async () => {
    f = await deployCollateralFixture();
    const snapshot = await f.networkHelpers.takeSnapshot();
    restore = () => snapshot.restore();
  });
  beforeEach(async () => restore());

  const borrower = () => getAddress(f.accounts.borrower.account.address);
  const as = (wallet: { account: { address: `0x${string}` } }) => ({ account: wallet.account as never });
  async function hostile() {
    const evil = await f.viem.deployContract("HostileCollection");
    await f.escrow.write.allowCollection([evil.address]);
    for (const id of [1n, 2n]) await evil.write.mint([borrower(), id]);
    await evil.write.setApprovalForAll([f.escrow.address, true], as(f.accounts.borrower));
    return evil;
  }
  /** A loan secured by the demo collection, whose piece the hostile one will try to reach. */
  const honestLoan = () => f.originateSecured(1n, f.art.address, 500n);

  it("a collection re-entering on the escrow transfer cannot claim, repay or withdraw inside it", async () => {
    for (const call of ["claimCollateral", "repay", "withdrawCredits"] as const) {
      await restore();
      const evilNow = await hostile();
      const victimNow = await honestLoan();
      await f.defaultLoan(victimNow);
      const data =
        call === "claimCollateral"
          ? encodeFunctionData({ abi: f.escrow.abi, functionName: call, args: [victimNow, evilNow.address] })
          : call === "repay"
            ? encodeFunctionData({ abi: f.note.abi, functionName: call, args: [victimNow, 1n] })
            : encodeFunctionData({ abi: f.note.abi, functionName: call });
      await evilNow.write.arm([call === "claimCollateral" ? f.escrow.address : f.note.address, data]);
      await f.originateSecured(1n, evilNow.address);
      assert.equal(await evilNow.read.attempted(), true);
      assert.equal(await evilNow.read.succeeded(), false);
      assert.equal((await evilNow.read.returned()).slice(0, 10), REENTRANT);
      assert.equal(await f.art.read.ownerOf([1n]), getAddress(f.escrow.address));
    }
  });

  it("a collection re-entering on the return transfer cannot take the other escrowed piece", async () => {
    const evil = await hostile();
    const victim = await honestLoan();
    await f.defaultLoan(victim);
    const note = await f.originateSecured(1n, evil.address);
    await evil.write.arm([f.escrow.address, encodeFunctionData({ abi: f.escrow.abi, functionName: "claimCollateral", args: [victim, evil.address] })]);
    await f.note.write.repay([note, 2n * P], as(f.accounts.borrower));
    assert.equal(await evil.read.succeeded(), false);
    assert.equal(await f.art.read.ownerOf([1n]), getAddress(f.escrow.address));
    assert.equal(await evil.read.ownerOf([1n]), borrower());
  });

  it("a collection whose return transfer reverts cannot block the final payment; the borrower pulls the piece later", async () => {
    const evil = await hostile();
    const note = await f.originateSecured(1n, evil.address);
    await f.note.write.transferFrom([f.accounts.treasury.account.address, f.wallets[ROLES.firstUser].account.address, note], as(f.accounts.treasury));
    await evil.write.setModes([f.escrow.address, false, false, zeroAddress]);
    const payoff = await f.note.read.payoffAmount([note]);
    const hash = await f.note.write.repay([note, payoff], as(f.accounts.borrower));
    await f.viem.assertions.emitWithArgs(hash, f.escrow, "CollateralReturnFailed", [note, getAddress(evil.address), 1n, borrower()]);
    await f.viem.assertions.emitWithArgs(hash, f.note, "LoanRepaid", [note]);
    assert.equal((await f.note.read.loanOf([note])).status, 2);
    assert.equal(await f.note.read.creditsOf([f.wallets[ROLES.firstUser].account.address]), payoff);
    assert.deepEqual(await f.escrow.read.collateralOf([note]), [getAddress(evil.address), 1n, borrower()]);
    // Only the borrower may pull it, and only once the collection lets go.
    await f.viem.assertions.revertWithCustomErrorWithArgs(f.escrow.write.claimCollateral([note, f.accounts.treasury.account.address], as(f.accounts.treasury)), f.escrow, "NotEntitled", [
      note,
      getAddress(f.accounts.treasury.account.address),
    ]);
    await assert.rejects(f.escrow.write.claimCollateral([note, borrower()], as(f.accounts.borrower)));
    await evil.write.setModes([zeroAddress, false, false, zeroAddress]);
    const pulled = await f.escrow.write.claimCollateral([note, borrower()], as(f.accounts.borrower));
    await f.viem.assertions.emitWithArgs(pulled, f.escrow, "CollateralReturned", [note, getAddress(evil.address), 1n, borrower()]);
    assert.equal(await evil.read.ownerOf([1n]), borrower());
  });

  it("a collection that burns all the gas of the return cannot block the final payment", async () => {
    const evil = await hostile();
    const note = await f.originateSecured(1n, evil.address);
    await evil.write.setModes([zeroAddress, true, false, zeroAddress]);
    const hash = await f.note.write.repay([note, 2n * P], { ...as(f.accounts.borrower), gas: 1_000_000n });
    await f.viem.assertions.emitWithArgs(hash, f.escrow, "CollateralReturnFailed", [note, getAddress(evil.address), 1n, borrower()]);
    assert.equal((await f.note.read.loanOf([note])).status, 2);
  });

  it("a collection that reports a transfer it did not make cannot originate a loan", async () => {
    const evil = await hostile();
    await evil.write.setModes([zeroAddress, false, true, zeroAddress]);
    await f.viem.assertions.revertWithCustomErrorWithArgs(f.originateSecured(1n, evil.address, 9n), f.escrow, "CollateralNotReceived", [getAddress(evil.address), 1n]);
    // Nor by claiming the borrower owns a piece it never moves.
    await evil.write.setModes([zeroAddress, false, true, borrower()]);
    await f.viem.assertions.revertWithCustomErrorWithArgs(f.originateSecured(7n, evil.address, 9n), f.escrow, "CollateralNotReceived", [getAddress(evil.address), 7n]);
  });

  it("a collection that lies about ownership moves nothing but its own pieces", async () => {
    const evil = await hostile();
    const victim = await honestLoan();
    // It says the escrow holds its piece 1 while never moving it: the loan starts, secured by nothing real.
    await evil.write.setModes([zeroAddress, false, true, f.escrow.address]);
    const note = await f.originateSecured(1n, evil.address);
    await f.defaultLoan(note);
    await f.escrow.write.claimCollateral([note, f.accounts.treasury.account.address], as(f.accounts.treasury));
    // The demo piece of the other loan never moved; its borrower still gets it back.
    assert.equal(await f.art.read.ownerOf([1n]), getAddress(f.escrow.address));
    await f.note.write.repay([victim, 10n * P], as(f.accounts.borrower));
    assert.equal(await f.art.read.ownerOf([1n]), borrower());
  });

  it("a collection refusing the pledge for a reason the escrow cannot see fails the origination with the collection named", async () => {
    const evil = await hostile();
    await evil.write.setModes([borrower(), false, false, zeroAddress]);
    // The borrower holds the piece and approved the escrow, yet the transfer reverts.
    await f.viem.assertions.revertWithCustomErrorWithArgs(f.originateSecured(1n, evil.address, 9n), f.escrow, "CollateralTransferFailed", [getAddress(evil.address), 1n]);
  });

  it("a collection refusing a pledge approved piece by piece fails the origination with the collection named", async () => {
    const evil = await hostile();
    await evil.write.setApprovalForAll([f.escrow.address, false], as(f.accounts.borrower));
    await evil.write.approve([f.escrow.address, 1n], as(f.accounts.borrower));
    await evil.write.setModes([borrower(), false, false, zeroAddress]);
    await f.viem.assertions.revertWithCustomErrorWithArgs(f.originateSecured(1n, evil.address, 9n), f.escrow, "CollateralTransferFailed", [getAddress(evil.address), 1n]);
  });

  it("a refused return keeps a token id above 96 bits whole for the borrower's pull", async () => {
    const evil = await hostile();
    const id = 2n ** 200n + 7n;
    await evil.write.mint([borrower(), id]);
    const note = await f.originateSecured(id, evil.address);
    await evil.write.setModes([f.escrow.address, false, false, zeroAddress]);
    await f.note.write.repay([note, 2n * P], as(f.accounts.borrower));
    assert.deepEqual(await f.escrow.read.collateralOf([note]), [getAddress(evil.address), id, borrower()]);
    await evil.write.setModes([zeroAddress, false, false, zeroAddress]);
    await f.escrow.write.claimCollateral([note, borrower()], as(f.accounts.borrower));
    assert.equal(await evil.read.ownerOf([id]), borrower());
  });

  it("a claimant's contract re-entering as it receives the piece cannot claim another piece nor repay the settled loan", async () => {
    const attacker = await f.viem.deployContract("MaliciousReceiver");
    const first = await f.originateSecured(1n);
    const second = await f.originateSecured(2n);
    for (const note of [first, second]) {
      await f.note.write.transferFrom([f.accounts.treasury.account.address, attacker.address, note], as(f.accounts.treasury));
      await f.defaultLoan(note);
    }
    const claim = (note: bigint) => encodeFunctionData({ abi: f.escrow.abi, functionName: "claimCollateral", args: [note, attacker.address] });
    await attacker.write.arm([f.escrow.address, claim(second)]);
    await attacker.write.execute([f.escrow.address, claim(first)]);
    assert.equal(await attacker.read.succeeded(), false);
    assert.equal((await attacker.read.returned()).slice(0, 10), REENTRANT);
    assert.equal(await f.art.read.ownerOf([1n]), getAddress(attacker.address));
    assert.equal(await f.art.read.ownerOf([2n]), getAddress(f.escrow.address));
    // Its own note is burned by the claim: a payment on it, from inside the receipt of a second claim, is refused.
    await f.dollar.write.mint([attacker.address, P]);
    await attacker.write.execute([f.dollar.address, encodeFunctionData({ abi: f.dollar.abi, functionName: "approve", args: [f.note.address, P] })]);
    await attacker.write.arm([f.note.address, encodeFunctionData({ abi: f.note.abi, functionName: "repay", args: [first, 1n] })]);
    await attacker.write.execute([f.escrow.address, claim(second)]);
    assert.equal(await attacker.read.succeeded(), false);
    assert.equal((await attacker.read.returned()).slice(0, 10), toFunctionSelector("LoanNotActive(uint256)"));
    assert.equal(await f.art.read.ownerOf([2n]), getAddress(attacker.address));
  });
});
