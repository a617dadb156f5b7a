import assert from "node:assert/strict";
import { before, beforeEach, describe, it } from "node:test";
import fc from "fast-check";
import { encodeAbiParameters, getAddress, keccak256, pad, zeroAddress, type Address } from "viem";
import { DEFAULT_TERMS, ROLES, deployLoanNoteFixture, type LoanNoteFixture } from "./fixtures";
import { fund, propertySeed } from "./helpers";

// LoanNote skips ERC-721's clearing of a single-note approval when its loan slot says none was given
// (`approvalSet`): these are the attacks that shortcut must never open — a spender approved by an earlier
// holder taking the note from the next one, or out of the vault, or an approval outliving a burn.
describe("LoanNote single-note approvals", () => {
  let f: LoanNoteFixture;
  let restore: () => Promise<void>;
  const P = DEFAULT_TERMS.principal;

  before(async () => {
    f = await deployLoanNoteFixture();
    const snapshot = await f.networkHelpers.takeSnapshot();
    restore = () => snapshot.restore();
  });
  beforeEach(async () => {
    await restore();
    await f.note.write.originate([1n, f.accounts.borrower.account.address, P, DEFAULT_TERMS.rateBps, DEFAULT_TERMS.termMonths], {
      account: f.accounts.originator.account,
    });
  });

  const user = (i: number) => f.wallets[ROLES.firstUser + i];
  const treasury = () => f.accounts.treasury;
  const approve = (owner: ReturnType<typeof user>, spender: Address) => f.note.write.approve([spender, 1n], { account: owner.account });
  const move = (by: ReturnType<typeof user>, from: Address, to: Address) => f.note.write.transferFrom([from, to, 1n], { account: by.account });
  const approvalSet = async () => (await f.note.read.loanOf([1n])).approvalSet;

  it("clears an approval when the holder moves the note, so the spender the last holder approved cannot take it from the next", async () => {
    await approve(treasury(), user(1).account.address);
    assert.equal(await approvalSet(), true);
    await move(treasury(), treasury().account.address, user(0).account.address);
    assert.equal(await f.note.read.getApproved([1n]), zeroAddress);
    assert.equal(await approvalSet(), false);
    await f.viem.assertions.revertWithCustomError(move(user(1), user(0).account.address, user(1).account.address), f.note, "ERC721InsufficientApproval");
    assert.equal(await f.note.read.ownerOf([1n]), getAddress(user(0).account.address));
  });

  it("clears the approval the spender used, and lets the new holder approve someone else", async () => {
    await approve(treasury(), user(1).account.address);
    await move(user(1), treasury().account.address, user(0).account.address);
    assert.equal(await f.note.read.getApproved([1n]), zeroAddress);
    await f.viem.assertions.revertWithCustomError(move(user(1), user(0).account.address, user(1).account.address), f.note, "ERC721InsufficientApproval");
    await approve(user(0), user(2).account.address);
    await move(user(2), user(0).account.address, user(2).account.address);
    assert.equal(await f.note.read.ownerOf([1n]), getAddress(user(2).account.address));
  });

  it("forgets an approval withdrawn with approve(0), and a later transfer leaves none behind", async () => {
    await approve(treasury(), user(1).account.address);
    await approve(treasury(), zeroAddress);
    assert.equal(await approvalSet(), false);
    assert.equal(await f.note.read.getApproved([1n]), zeroAddress);
    await move(treasury(), treasury().account.address, user(0).account.address);
    assert.equal(await f.note.read.getApproved([1n]), zeroAddress);
    await f.viem.assertions.revertWithCustomError(move(user(1), user(0).account.address, user(1).account.address), f.note, "ERC721InsufficientApproval");
  });

  it("clears an approval as the note enters the vault: the spender cannot pull it out", async () => {
    await approve(treasury(), user(1).account.address);
    await f.note.write.safeTransferFrom([treasury().account.address, f.vault.address, 1n], { account: treasury().account });
    assert.equal(await f.note.read.getApproved([1n]), zeroAddress);
    await f.viem.assertions.revertWithCustomError(move(user(1), f.vault.address, user(1).account.address), f.note, "ERC721InsufficientApproval");
    assert.equal(await f.note.read.ownerOf([1n]), getAddress(f.vault.address));
  });

  it("clears an approval with the burn of the final payment", async () => {
    await approve(treasury(), user(1).account.address);
    const slot = approvalSlotOf(1n);
    assert.equal(await f.publicClient.getStorageAt({ address: f.note.address, slot }), pad(user(1).account.address.toLowerCase() as Address));
    await fund(f, f.accounts.borrower, 2n * P, f.note.address);
    await f.note.write.repay([1n, 2n * P], { account: f.accounts.borrower.account });
    const loan = await f.note.read.loanOf([1n]);
    assert.equal(loan.approvalSet, false);
    assert.equal(loan.status, 2);
    // The approval's own slot is zero again (a stale one could never be used: the id is never minted again).
    assert.equal(await f.publicClient.getStorageAt({ address: f.note.address, slot }), pad("0x0"));
  });

  it("changes no term and no change count of the loan when a note is approved", async () => {
    const before = await f.note.read.loanOf([1n]);
    await approve(treasury(), user(1).account.address);
    assert.deepEqual({ ...(await f.note.read.loanOf([1n])), approvalSet: false }, before);
  });

  it("matches a model of ERC-721 approvals over random approvals and transfers by holders, spenders and strangers", async () => {
    const people = () => [treasury(), user(0), user(1), user(2)];
    const step = fc.record({ kind: fc.constantFrom("approve", "unapprove", "move"), by: fc.nat(3), to: fc.nat(3) });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        await restore();
        await f.note.write.originate([1n, f.accounts.borrower.account.address, P, DEFAULT_TERMS.rateBps, DEFAULT_TERMS.termMonths], {
          account: f.accounts.originator.account,
        });
        let owner: Address = getAddress(treasury().account.address);
        let approved: Address = zeroAddress;
        for (const { kind, by, to } of steps) {
          const caller = people()[by];
          const callerAddress = getAddress(caller.account.address);
          const target = getAddress(people()[to].account.address);
          if (kind === "move") {
            const allowed = callerAddress === owner || callerAddress === approved;
            const sent = move(caller, owner, target);
            if (allowed) {
              await sent;
              owner = target;
              approved = zeroAddress;
            } else await assert.rejects(sent);
          } else {
            const spender = kind === "approve" ? target : zeroAddress;
            const sent = approve(caller, spender);
            if (callerAddress === owner) {
              await sent;
              approved = spender;
            } else await assert.rejects(sent);
          }
          assert.equal(await f.note.read.ownerOf([1n]), owner);
          assert.equal(await f.note.read.getApproved([1n]), approved);
          assert.equal(await approvalSet(), approved !== zeroAddress);
        }
      }),
      { numRuns: 25, seed: propertySeed(25) },
    );
  });

  /** OpenZeppelin ERC721's `_tokenApprovals` slot of `tokenId` (its fifth state variable, slot 4; AccessControl's follow). */
  function approvalSlotOf(tokenId: bigint) {
    return keccak256(encodeAbiParameters([{ type: "uint256" }, { type: "uint256" }], [tokenId, 4n]));
  }
});
