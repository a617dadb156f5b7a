import assert from "node:assert/strict";
import { before, beforeEach, describe, it } from "node:test";
import { encodeFunctionData, getAddress, maxUint256, parseEventLogs, type Hash } from "viem";
import { DEFAULT_TERMS, ROLES } from "./fixtures";
import { deployCollateralFixture, type CollateralFixture } from "./collateralFixture";
import { fund } from "./helpers";
import { acceptance, signRefinanceOffer } from "./refinanceOrders";

const OFFSET = 1n << 128n;
const P = DEFAULT_TERMS.principal;

describe("refinancing a loan secured by an NFT", () => {
  let f: CollateralFixture;
  let lender: CollateralFixture["wallets"][number];
  let restore: () => Promise<void>;

  before(async () => {
    f = await deployCollateralFixture();
    lender = f.wallets[ROLES.firstUser];
    await fund(f, lender, 100n * P, f.marketplace.address);
    await f.dollar.write.approve([f.marketplace.address, maxUint256], { account: f.accounts.borrower.account });
    const snapshot = await f.networkHelpers.takeSnapshot();
    restore = () => snapshot.restore();
  });
  beforeEach(async () => restore());

  const borrower = () => getAddress(f.accounts.borrower.account.address);
  const asBorrower = () => ({ account: f.accounts.borrower.account });
  const receipt = async (hash: Promise<Hash>) => f.publicClient.waitForTransactionReceipt({ hash: await hash });

  it("moves the piece to the new loan inside the escrow: the collection is never called and the piece never leaves", async () => {
    const tokenId = await f.originateSecured(1n);
    const { order, signature } = await signRefinanceOffer(f, lender, { tokenId });
    const r = await receipt(f.marketplace.write.acceptRefinanceOffer([order, signature, acceptance(P)], asBorrower()));

    assert.equal(r.logs.filter((log) => getAddress(log.address) === getAddress(f.art.address)).length, 0, "no event of the collection: it was not called");
    assert.equal(getAddress(await f.art.read.ownerOf([1n])), getAddress(f.escrow.address));
    const newTokenId = tokenId + OFFSET;
    const [collection, piece, pledger] = await f.escrow.read.collateralOf([newTokenId]);
    assert.deepEqual([getAddress(collection), piece, getAddress(pledger)], [getAddress(f.art.address), 1n, borrower()]);
    assert.deepEqual(await f.escrow.read.collateralOf([tokenId]), ["0x0000000000000000000000000000000000000000", 0n, "0x0000000000000000000000000000000000000000"]);
    assert.equal((await f.note.read.loanOf([newTokenId])).pledged, true);
    assert.equal(getAddress(await f.note.read.borrowerOf([newTokenId])), borrower());
    const moved = parseEventLogs({ abi: f.escrow.abi, logs: r.logs, eventName: "CollateralMoved" });
    assert.deepEqual(
      moved.map((e) => [e.args.tokenId, e.args.newTokenId, getAddress(e.args.collection), e.args.collateralId]),
      [[tokenId, newTokenId, getAddress(f.art.address), 1n]],
    );

    // The new loan's final payment returns the piece to the borrower; the old loan has nothing left to claim.
    await f.note.write.repay([newTokenId, 2n * P], asBorrower());
    assert.equal(getAddress(await f.art.read.ownerOf([1n])), borrower());
    await assert.rejects(f.escrow.write.claimCollateral([tokenId, borrower()], asBorrower()), /NoCollateral/);
  });

  it("keeps a piece with a token id too large for the pledge slot whole", async () => {
    const big = 2n ** 200n + 7n;
    const evil = await f.viem.deployContract("HostileCollection");
    await f.escrow.write.allowCollection([evil.address]);
    await evil.write.mint([borrower(), big]);
    await evil.write.setApprovalForAll([f.escrow.address, true], asBorrower());
    const tokenId = await f.originateSecured(big, evil.address);
    const { order, signature } = await signRefinanceOffer(f, lender, { tokenId });
    await f.marketplace.write.acceptRefinanceOffer([order, signature, acceptance(P)], asBorrower());
    const [, piece] = await f.escrow.read.collateralOf([tokenId + OFFSET]);
    assert.equal(piece, big);
  });

  it("gives a collection armed to re-enter no call to re-enter from, and a defaulted new loan's piece goes to its lender", async () => {
    const evil = await f.viem.deployContract("HostileCollection");
    await f.escrow.write.allowCollection([evil.address]);
    await evil.write.mint([borrower(), 9n]);
    await evil.write.setApprovalForAll([f.escrow.address, true], asBorrower());
    const tokenId = await f.originateSecured(9n, evil.address);
    await evil.write.arm([f.note.address, encodeFunctionData({ abi: f.note.abi, functionName: "withdrawCredits" })]);
    const { order, signature } = await signRefinanceOffer(f, lender, { tokenId });
    await f.marketplace.write.acceptRefinanceOffer([order, signature, acceptance(P)], asBorrower());
    assert.equal(await evil.read.attempted(), false);
    assert.equal(getAddress(await evil.read.ownerOf([9n])), getAddress(f.escrow.address));

    await f.defaultLoan(tokenId + OFFSET);
    await evil.write.arm(["0x0000000000000000000000000000000000000000", "0x"]);
    await f.escrow.write.claimCollateral([tokenId + OFFSET, getAddress(lender.account.address)], { account: lender.account });
    assert.equal(getAddress(await evil.read.ownerOf([9n])), getAddress(lender.account.address));
  });

  it("refuses anyone but the pledge's borrower, even the note's holder", async () => {
    const tokenId = await f.originateSecured(2n);
    const { order, signature } = await signRefinanceOffer(f, lender, { tokenId });
    const treasury = f.accounts.treasury;
    await f.viem.assertions.revertWithCustomErrorWithArgs(f.marketplace.write.acceptRefinanceOffer([order, signature, acceptance(P)], { account: treasury.account }), f.note, "NotBorrower", [
      tokenId,
      getAddress(treasury.account.address),
    ]);
  });
});
