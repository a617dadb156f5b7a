import assert from "node:assert/strict";
import { before, beforeEach, describe, it } from "node:test";
import { getAddress, zeroAddress } from "viem";
import * as schedule from "#domain/schedule";
import { DEFAULTS } from "../params";
import { DEFAULT_TERMS, ROLES, deployLoanNoteFixture, type LoanNoteFixture } from "./fixtures";
import { fund, now, signPermit, PERIOD } from "./helpers";
import { signListing } from "./orders";

/** A buyer gets the note state they priced; any repayment or a default lapses a listing. */
describe("a listing lapses when its note changes", () => {
  let f: LoanNoteFixture;
  let restore: () => Promise<void>;
  const P = DEFAULT_TERMS.principal;

  before(async () => {
    f = await deployLoanNoteFixture();
    const snapshot = await f.networkHelpers.takeSnapshot();
    restore = () => snapshot.restore();
  });
  beforeEach(async () => restore());

  const investor = () => f.wallets[ROLES.firstUser];
  const holder = () => f.wallets[ROLES.firstUser + 1];

  const termsOf = async (tokenId: bigint): Promise<schedule.LoanTerms> => {
    const loan = await f.note.read.loanOf([tokenId]);
    return { principal: loan.principal, rateBps: loan.rateBps, termMonths: loan.termMonths, start: BigInt(loan.start) };
  };
  const balances = async () => ({
    investor: await f.dollar.read.balanceOf([investor().account.address]),
    borrower: await f.dollar.read.balanceOf([f.accounts.borrower.account.address]),
    treasury: await f.dollar.read.balanceOf([f.accounts.treasury.account.address]),
    feeRecipient: await f.dollar.read.balanceOf([f.accounts.feeRecipient.account.address]),
  });

  /** Both ways a buyer fills a listing: `buy` after an approval and `buyWithPermit`, each must revert ListingStale. */
  async function assertBuysRefused(tokenId: bigint, price: bigint) {
    await f.viem.assertions.revertWithCustomErrorWithArgs(f.marketplace.write.buy([tokenId, price], { account: investor().account }), f.marketplace, "ListingStale", [tokenId]);
    const deadline = (await now(f)) + 3_600n;
    const sig = await signPermit(f, investor(), f.marketplace.address, price, deadline);
    await f.viem.assertions.revertWithCustomErrorWithArgs(
      f.marketplace.write.buyWithPermit([tokenId, price, deadline, sig.v, sig.r, sig.s], { account: investor().account }),
      f.marketplace,
      "ListingStale",
      [tokenId],
    );
  }

  it("refuses the investor's buy after the borrower, holding their own listed note, repays it to themselves", async () => {
    const { borrower, treasury } = f.accounts;
    const tokenId = await f.mintNoteTo(treasury);
    // The borrower buys their own note from the treasury at par, then lists it at $1,000.
    await f.marketplace.write.list([tokenId, P], { account: treasury.account });
    await fund(f, borrower, 2n * P, f.marketplace.address);
    await f.marketplace.write.buy([tokenId, P], { account: borrower.account });
    await f.note.write.setApprovalForAll([f.marketplace.address, true], { account: borrower.account });
    const price = 1_000_000_000n;
    await f.marketplace.write.list([tokenId, price], { account: borrower.account });
    // The investor is ready to buy at that price (approval given, as a signed buy(id, price) would need).
    await fund(f, investor(), 2n * price, f.marketplace.address);

    // The borrower repays all but one micro-dollar, credited to themselves as holder, and withdraws it.
    await f.dollar.write.approve([f.note.address, 2n ** 256n - 1n], { account: borrower.account });
    const at = (await now(f)) + 1n;
    const owed = schedule.payoffAmount(await termsOf(tokenId), 0n, at);
    await f.networkHelpers.time.setNextBlockTimestamp(at);
    await f.note.write.repay([tokenId, owed - 1n], { account: borrower.account });
    assert.equal((await f.note.read.loanOf([tokenId])).repaid, owed - 1n);
    assert.equal(await f.note.read.creditsOf([borrower.account.address]), owed - 1n);
    await f.note.write.withdrawCredits({ account: borrower.account });

    const before = await balances();
    assert.deepEqual(await f.marketplace.read.listingOf([tokenId]), [zeroAddress, 0n]);
    await assertBuysRefused(tokenId, price);
    assert.deepEqual(await balances(), before);
    assert.equal(await f.note.read.ownerOf([tokenId]), getAddress(borrower.account.address));
  });

  it("lapses a listing when the loan defaults; the holder may list the defaulted note again, sold only to a buyer who signs for a late note", async () => {
    const tokenId = await f.mintNoteTo(holder());
    await f.note.write.setApprovalForAll([f.marketplace.address, true], { account: holder().account });
    const price = 900_000_000n;
    await f.marketplace.write.list([tokenId, price], { account: holder().account });
    await fund(f, investor(), 2n * price, f.marketplace.address);
    await f.networkHelpers.time.increaseTo(schedule.maturityDefaultAt(await termsOf(tokenId), DEFAULTS.gracePeriodSeconds));
    await f.note.write.markDefaulted([tokenId], { account: f.accounts.originator.account });

    const before = await balances();
    assert.deepEqual(await f.marketplace.read.listingOf([tokenId]), [zeroAddress, 0n]);
    await assertBuysRefused(tokenId, price);
    await f.viem.assertions.revertWithCustomErrorWithArgs(f.marketplace.write.updatePrice([tokenId, price - 1n], { account: holder().account }), f.marketplace, "ListingStale", [tokenId]);
    assert.deepEqual(await balances(), before);

    const newPrice = 100_000_000n;
    await f.marketplace.write.list([tokenId, newPrice], { account: holder().account });
    assert.deepEqual(await f.marketplace.read.listingOf([tokenId]), [getAddress(holder().account.address), newPrice]);
    // A defaulted note is past due: a plain listing, which says nothing of lateness, never sells it...
    const [, daysPastDue] = await f.note.read.pastDueOf([tokenId]);
    assert.ok(daysPastDue > 0n);
    await f.viem.assertions.revertWithCustomErrorWithArgs(f.marketplace.write.buy([tokenId, newPrice], { account: investor().account }), f.marketplace, "NoteLate", [tokenId, daysPastDue]);
    assert.deepEqual(await balances(), before);
    // ...while a signed listing that names the days it accepts does.
    const listing = await signListing(f, holder(), { tokenId, price: newPrice, maxDaysPastDue: daysPastDue + 1n });
    await f.marketplace.write.fillListing([listing.order, listing.signature, newPrice], { account: investor().account });
    assert.equal(await f.note.read.ownerOf([tokenId]), getAddress(investor().account.address));
  });

  it("lapses the treasury's listing at par after a repayment; a new listing at the new par fills", async () => {
    const { borrower, treasury } = f.accounts;
    const tokenId = await f.mintNoteTo(treasury);
    await f.marketplace.write.list([tokenId, P], { account: treasury.account });
    await fund(f, investor(), 2n * P, f.marketplace.address);
    await f.networkHelpers.time.increase(PERIOD);
    const installment = await f.note.read.monthlyPayment([tokenId]);
    await fund(f, borrower, installment, f.note.address);
    await f.note.write.repay([tokenId, installment], { account: borrower.account });

    const before = await balances();
    assert.deepEqual(await f.marketplace.read.listingOf([tokenId]), [zeroAddress, 0n]);
    await assertBuysRefused(tokenId, P);
    assert.deepEqual(await balances(), before);

    const par = await f.note.read.outstandingBalance([tokenId]);
    assert.ok(par < P);
    await f.marketplace.write.list([tokenId, par], { account: treasury.account });
    assert.deepEqual(await f.marketplace.read.listingOf([tokenId]), [getAddress(treasury.account.address), par]);
    await f.marketplace.write.buy([tokenId, par], { account: investor().account });
    assert.equal(await f.note.read.ownerOf([tokenId]), getAddress(investor().account.address));
  });

  it("lapses a listing after a partial repayment of one micro-dollar", async () => {
    const tokenId = await f.mintNoteTo(holder());
    await f.note.write.setApprovalForAll([f.marketplace.address, true], { account: holder().account });
    await f.marketplace.write.list([tokenId, P], { account: holder().account });
    await fund(f, investor(), 2n * P, f.marketplace.address);
    await fund(f, f.accounts.borrower, 1n, f.note.address);
    await f.note.write.repay([tokenId, 1n], { account: f.accounts.borrower.account });
    assert.deepEqual(await f.marketplace.read.listingOf([tokenId]), [zeroAddress, 0n]);
    await assertBuysRefused(tokenId, P);
  });
});
