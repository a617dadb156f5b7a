import assert from "node:assert/strict";
import { before, beforeEach, describe, it } from "node:test";
import { getAddress, zeroAddress } from "viem";
import { ROLES, deployLoanNoteFixture, type LoanNoteFixture } from "./fixtures";
import { now, signPermit } from "./helpers";

// Outcomes the branch report (contracts/coverage/branches.ts) found no other test taking.
describe("NoteMarketplace edge outcomes", () => {
  let f: LoanNoteFixture;
  let restore: () => Promise<void>;
  const price = 990_000_000n;

  before(async () => {
    f = await deployLoanNoteFixture();
    const snapshot = await f.networkHelpers.takeSnapshot();
    restore = () => snapshot.restore();
  });
  beforeEach(async () => restore());

  const seller = () => f.wallets[ROLES.firstUser];
  const buyer = () => f.wallets[ROLES.firstUser + 1];
  const other = () => f.wallets[ROLES.firstUser + 2];

  async function listed(): Promise<bigint> {
    const tokenId = await f.mintNoteTo(seller());
    await f.note.write.approve([f.marketplace.address, tokenId], { account: seller().account });
    await f.marketplace.write.list([tokenId, price], { account: seller().account });
    return tokenId;
  }

  it("still fills a purchase whose permit was front-run, on the allowance that permit gave", async () => {
    const tokenId = await listed();
    await f.dollar.write.mint([buyer().account.address, price]);
    const deadline = (await now(f)) + 600n;
    const sig = await signPermit(f, buyer(), f.marketplace.address, price, deadline);
    await f.dollar.write.permit([buyer().account.address, f.marketplace.address, price, deadline, sig.v, sig.r, sig.s], {
      account: other().account,
    });
    await f.marketplace.write.buyWithPermit([tokenId, price, deadline, sig.v, sig.r, sig.s], { account: buyer().account });
    assert.equal(await f.note.read.ownerOf([tokenId]), getAddress(buyer().account.address));
    assert.equal(await f.dollar.read.balanceOf([buyer().account.address]), 0n);
  });

  it("reads a listing as empty once its note belongs to someone else", async () => {
    const tokenId = await listed();
    await f.note.write.transferFrom([seller().account.address, other().account.address, tokenId], { account: seller().account });
    assert.deepEqual(await f.marketplace.read.listingOf([tokenId]), [zeroAddress, 0n]);
  });
});
