import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { encodeFunctionData, maxUint256, parseEventLogs, type Address, type Hex } from "viem";
import { loanNoteAbi, noteMarketplaceAbi, testDollarAbi } from "#domain/abis";
import { formatUsdAmount, parseUsd } from "#domain/money";
import { fund, makeUser, publishOrder, sendAs, startLoanStack, type LoanStack, type TestUser } from "#testing/loanStack";
import { treasuryAcceptanceSchema, treasuryOffersSchema } from "#domain/wire/treasuryOffer";
import { TREASURY_ANSWERS } from "./texts";

/**
 * An admin accepting investors' offers on the treasury's notes, against real Postgres, a private anvil with the
 * contracts and the indexer: the API sends the acceptance with the treasury key and the note moves to the buyer.
 */
describe("the treasury accepts offers on its notes", { timeout: 300_000 }, () => {
  let stack: LoanStack;
  let admin: TestUser, borrower: TestUser, investor: TestUser;
  let fixedNote: bigint, matchedNote: bigint;
  const USD = 1_000_000n;
  const call = (method: string, path: string, user?: TestUser, body?: unknown) => stack.api.call(method, path, { token: user?.token, body });
  const marketplace = () => stack.deployment.contracts.marketplace as Address;
  const treasury = () => stack.deployment.treasury as Address;
  const balanceOf = (who: Address) => stack.chain.readContract({ address: stack.deployment.contracts.stablecoin as Address, abi: testDollarAbi, functionName: "balanceOf", args: [who] });
  const ownerOf = async (tokenId: bigint) =>
    (await stack.chain.readContract({ address: stack.deployment.contracts.loanNote as Address, abi: loanNoteAbi, functionName: "ownerOf", args: [tokenId] })).toLowerCase();

  async function approvedNote(amount: string, interestRate: number): Promise<bigint> {
    const requested = await call("POST", "/loans/request", borrower, { amount, interestRate, termMonths: 12, purpose: "business" });
    assert.equal(requested.status, 201, requested.body?.message);
    const approved = await call("PUT", `/admin/loans/${requested.body.data._id}/approve`, admin, {});
    assert.equal(approved.status, 200, approved.body?.message);
    await stack.indexer!.caughtUp();
    const loan = (await call("GET", `/admin/loans/${requested.body.data._id}`, admin)).body.data;
    return BigInt(loan.nftTokenId);
  }

  before(async () => {
    stack = await startLoanStack({ indexer: true });
    [admin, borrower, investor] = await Promise.all([
      makeUser(stack.api, { admin: true }),
      makeUser(stack.api, { kyc: "approved", wallet: true }),
      makeUser(stack.api, { kyc: "approved", wallet: true }),
    ]);
    await fund(stack, investor.wallet!.address, 50_000n * USD);
    await sendAs(stack, investor.wallet!, { to: stack.deployment.contracts.stablecoin, data: encodeFunctionData({ abi: testDollarAbi, functionName: "approve", args: [marketplace(), maxUint256] }) });
    fixedNote = await approvedNote("5000", 8);
    matchedNote = await approvedNote("3000", 12);
  });

  after(async () => {
    await stack?.close();
  });

  let fixedHash: string;
  let matchingHash: string;

  it("shows the admin the open offers on treasury notes, single-note and matching, with the fee and what the treasury receives", async () => {
    fixedHash = (await publishOrder(stack.api, investor, { kind: "offer", tokenId: fixedNote.toString(), priceKind: "fixed", price: "4000", expiresInDays: 7 })).hash;
    matchingHash = (await publishOrder(stack.api, investor, { kind: "matchingOffer", priceKind: "par", parBps: 9000, budget: "10000", expiresInDays: 7, ranges: { minRateBps: 1100 } })).hash;
    const answer = await call("GET", "/admin/treasury/offers", admin);
    assert.equal(answer.status, 200, answer.body?.message);
    const offers = treasuryOffersSchema.parse(answer.body.data).offers;
    const fixed = offers.find((o) => o.hash === fixedHash);
    assert.ok(fixed, "the single-note offer is listed");
    const feeBps = BigInt(await stack.chain.readContract({ address: marketplace(), abi: noteMarketplaceAbi, functionName: "feeBps" }));
    const fee = (4000n * USD * feeBps) / 10_000n;
    assert.deepEqual([fixed.tokenId, fixed.priceNow, fixed.fee, fixed.proceeds], [fixedNote.toString(), "4000", formatUsdAmount(fee), formatUsdAmount(4000n * USD - fee)]);
    const matching = offers.filter((o) => o.hash === matchingHash);
    assert.deepEqual(
      matching.map((o) => o.tokenId),
      [matchedNote.toString()],
      "the matching offer fits only the 12% note",
    );
  });

  it("refuses a non-admin with 403 and sends nothing", async () => {
    const refused = await call("POST", `/admin/treasury/offers/${fixedHash}/accept`, investor, { tokenId: fixedNote.toString(), minPrice: "4000" });
    assert.equal(refused.status, 403);
    assert.equal(await ownerOf(fixedNote), treasury().toLowerCase());
  });

  it("accepts an investor's offer with the treasury key: the note moves to the investor and the treasury is paid price − fee", async () => {
    const before = await balanceOf(treasury());
    const answer = await call("POST", `/admin/treasury/offers/${fixedHash}/accept`, admin, { tokenId: fixedNote.toString(), minPrice: "4000" });
    assert.equal(answer.status, 200, answer.body?.message);
    assert.equal(answer.body.message, TREASURY_ANSWERS.offerAccepted);
    treasuryAcceptanceSchema.parse(answer.body.data);
    assert.equal(await ownerOf(fixedNote), investor.wallet!.address.toLowerCase());
    const receipt = await stack.chain.getTransactionReceipt({ hash: answer.body.data.txHash as Hex });
    const [filled] = parseEventLogs({ abi: noteMarketplaceAbi, eventName: "OrderFilled", logs: receipt.logs });
    assert.equal(filled!.args.price, 4000n * USD);
    // The seller's share is its own transfer; on this deployment the fee recipient may be the treasury too.
    const paid = parseEventLogs({ abi: testDollarAbi, eventName: "Transfer", logs: receipt.logs }).filter((t) => t.args.to.toLowerCase() === treasury().toLowerCase());
    assert.ok(
      paid.some((t) => t.args.value === filled!.args.price - filled!.args.fee),
      "the treasury is paid price − fee",
    );
    const feeRecipient = await stack.chain.readContract({ address: marketplace(), abi: noteMarketplaceAbi, functionName: "feeRecipient" });
    const feeBack = feeRecipient.toLowerCase() === treasury().toLowerCase() ? filled!.args.fee : 0n;
    assert.equal((await balanceOf(treasury())) - before, filled!.args.price - filled!.args.fee + feeBack);
    assert.equal(parseUsd(answer.body.data.proceeds), filled!.args.price - filled!.args.fee);
  });

  it("refuses the same offer again: the treasury no longer holds the note", async () => {
    const again = await call("POST", `/admin/treasury/offers/${fixedHash}/accept`, admin, { tokenId: fixedNote.toString(), minPrice: "4000" });
    assert.equal(again.status, 409);
    assert.equal(again.body.message, TREASURY_ANSWERS.notHeld);
  });

  it("accepts a matching offer for the note it fits, at no less than the price reviewed", async () => {
    const shown = ((await call("GET", "/admin/treasury/offers", admin)).body.data.offers as any[]).find((o) => o.hash === matchingHash);
    const tooHigh = await call("POST", `/admin/treasury/offers/${matchingHash}/accept`, admin, { tokenId: matchedNote.toString(), minPrice: "9999" });
    assert.equal(tooHigh.status, 409);
    assert.match(tooHigh.body.message, /review it again/);
    const answer = await call("POST", `/admin/treasury/offers/${matchingHash}/accept`, admin, { tokenId: matchedNote.toString(), minPrice: shown.priceNow });
    assert.equal(answer.status, 200, answer.body?.message);
    assert.equal(await ownerOf(matchedNote), investor.wallet!.address.toLowerCase());
  });

  it("refuses a stale offer: one its buyer cancelled on-chain is no longer open", async () => {
    const note = await approvedNote("2000", 8);
    const { hash } = await publishOrder(stack.api, investor, { kind: "offer", tokenId: note.toString(), priceKind: "fixed", price: "1500", expiresInDays: 7 });
    await sendAs(stack, investor.wallet!, { to: marketplace(), data: encodeFunctionData({ abi: noteMarketplaceAbi, functionName: "cancelOrders", args: [[hash as Hex]] }) });
    const stale = await call("POST", `/admin/treasury/offers/${hash}/accept`, admin, { tokenId: note.toString(), minPrice: "1500" });
    assert.equal(stale.status, 409);
    assert.equal(stale.body.message, TREASURY_ANSWERS.offerNotOpen);
    assert.equal(await ownerOf(note), treasury().toLowerCase());
    const unknown = await call("POST", `/admin/treasury/offers/0x${"ab".repeat(32)}/accept`, admin, { tokenId: note.toString(), minPrice: "1500" });
    assert.equal(unknown.status, 404);
  });
});
