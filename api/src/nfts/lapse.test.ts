import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { and, asc, eq } from "drizzle-orm";
import { createWalletClient, encodeFunctionData, http, maxUint256, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import type { Socket } from "socket.io-client";
import { loanNoteAbi, testDollarAbi } from "#domain/abis";
import { DEV_ACCOUNTS } from "#domain/devAccounts";
import { formatUsdAmount } from "#domain/money";
import { chainListings, loans, notifications, orders } from "#db/schema";
import { startIndexer, type Indexer } from "#indexer/index";
import { fund, listOnChain, makeUser, notificationsOf, parPriceNow, payPastDue, publishOrder, sendAs, startLoanStack, type LoanStack, type TestUser, buyByPermit } from "#testing/loanStack";
import { openSocket, record } from "../realtime/testing";

/**
 * A listing made before a repayment or a default lapses in the mirror and the API, its holder
 * is told why. The treasury's own listing is signed at 100% of par: it survives repayments at the new par and
 * lapses on a default.
 * Real Postgres, a private anvil with the contracts, the real indexer, loans approved (minted and listed) by the API.
 */
describe("a listing lapses when its note is repaid or defaults", () => {
  const USD = 1_000_000n;
  let stack: LoanStack;
  let indexer: Indexer;
  let admin: TestUser, borrower: TestUser, alice: TestUser, bob: TestUser;
  let aliceEvents: ReturnType<typeof record>;
  let socket: Socket;
  const db = () => stack.api.database.db;
  const call = (method: string, path: string, user?: TestUser, body?: unknown) => stack.api.call(method, path, { token: user?.token, body });
  const contracts = () => stack.deployment.contracts as Record<"loanNote" | "marketplace" | "stablecoin", Address>;

  /** The mirror at the chain's head, and every outbox row delivered (notifications stored and pushed). */
  async function synced() {
    await indexer.caughtUp();
    await stack.api.server.outbox!.deliverNow();
  }

  async function approve(amount: string, termMonths = 12): Promise<{ id: string; tokenId: bigint }> {
    const requested = await call("POST", "/loans/request", borrower, { amount, interestRate: 9, termMonths, purpose: "business" });
    assert.equal(requested.status, 201, requested.body?.message);
    const approved = await call("PUT", `/admin/loans/${requested.body.data._id}/approve`, admin, {});
    assert.equal(approved.status, 200, approved.body?.message);
    return { id: requested.body.data._id, tokenId: BigInt(requested.body.data.loanNumber) };
  }

  /**
   * The borrower's wallet repays `amount` of the loan, straight to the contract (the API is not involved), with a
   * wallet's headroom over the gas estimate: a repayment's cost moves with the block's time, and a limit of exactly
   * the estimate failed a loaded run (59,462 of 59,612 gas used, the token transfer out of gas).
   */
  async function repay(tokenId: bigint, amount: bigint): Promise<Hex> {
    await sendAs(stack, borrower.wallet!, { to: contracts().stablecoin, data: encodeFunctionData({ abi: testDollarAbi, functionName: "approve", args: [contracts().loanNote, maxUint256] }) });
    return sendAs(stack, borrower.wallet!, { to: contracts().loanNote, data: encodeFunctionData({ abi: loanNoteAbi, functionName: "repay", args: [tokenId, amount] }) });
  }

  /** A par listing's price now, as the chain prices its fill: the dirty price (principal plus accrued interest). */
  const par = (tokenId: bigint, parBps?: bigint) => parPriceNow(stack, tokenId, parBps);
  const listingsOf = (tokenId: bigint) => db().select().from(chainListings).where(eq(chainListings.tokenId, tokenId)).orderBy(asc(chainListings.blockNumber), asc(chainListings.logIndex));
  const treasuryListingsOf = (tokenId: bigint) =>
    db()
      .select()
      .from(orders)
      .where(and(eq(orders.tokenId, tokenId), eq(orders.signer, stack.deployment.treasury.toLowerCase())))
      .orderBy(asc(orders.createdAt));
  const offered = async () => {
    const browse = await call("GET", "/nfts/marketplace/browse?limit=100", alice);
    const list = await call("GET", "/loans/marketplace/list?limit=100", alice);
    assert.equal(browse.status, 200);
    assert.equal(list.status, 200);
    return {
      nfts: new Map<string, string>(browse.body.data.nfts.map((n: any) => [n.tokenId, n.listingPrice])),
      loans: new Map<string, string>(list.body.data.loans.map((l: any) => [l.nftTokenId, l.listingPrice])),
    };
  };
  const loanRow = async (id: string) => (await db().select().from(loans).where(eq(loans.id, id)))[0];

  const buyAs = (user: TestUser, tokenId: bigint, price: string) => buyByPermit(stack, user, tokenId, price);

  /** Polls the database until `check` holds; the relisting runs in the background after the outbox is delivered. */
  async function eventually<T>(check: () => Promise<T | undefined>): Promise<T> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const found = await check();
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error("the condition never held");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  before(async () => {
    stack = await startLoanStack();
    indexer = startIndexer({ db: stack.api.database.db, rpcUrl: stack.anvil.rpcUrl, deployment: stack.deployment, pollIntervalMs: 50 });
    [admin, borrower, alice, bob] = await Promise.all([
      makeUser(stack.api, { admin: true }),
      makeUser(stack.api, { kyc: "approved", wallet: true }),
      makeUser(stack.api, { kyc: "approved", wallet: true }),
      makeUser(stack.api, { kyc: "approved", wallet: true }),
    ]);
    await fund(stack, alice.wallet!.address, 50_000n * USD);
    await fund(stack, bob.wallet!.address, 50_000n * USD);
    await fund(stack, borrower.wallet!.address, 10_000n * USD);
    socket = await openSocket(stack.api.url, alice.token);
    aliceEvents = record(socket);
  });

  after(async () => {
    socket?.close();
    await indexer?.stop();
    await stack?.close();
  });

  it("a repayment makes a user's listing lapse: the mirror and the API say why, the marketplace stops offering it, the holder is told once", async () => {
    const loan = await approve("3000");
    await synced();
    await buyAs(alice, loan.tokenId, formatUsdAmount(await par(loan.tokenId)));
    await listOnChain(stack, alice.wallet!, loan.tokenId, 2_990_000_000n);
    await synced();
    assert.equal((await offered()).nfts.get(String(loan.tokenId)), "2990");

    const hash = await repay(loan.tokenId, 123_450_000n);
    await synced();

    const [userListing] = await listingsOf(loan.tokenId); // the treasury listed by signature, not on-chain
    assert.deepEqual([userListing.status, userListing.lapseReason, userListing.lapseAmount, userListing.closedTxHash], ["lapsed", "repaid", 123_450_000n, hash]);
    const shown = await offered();
    assert.ok(!shown.nfts.has(String(loan.tokenId)), "the browse page no longer offers it");
    assert.ok(!shown.loans.has(String(loan.tokenId)), "the loans' marketplace list no longer offers it");
    const details = await call("GET", `/nfts/${loan.tokenId}`, alice);
    assert.equal(details.status, 200);
    assert.equal(details.body.data.marketplaceStatus, "unlisted");
    assert.equal(details.body.data.listingPrice, null);
    assert.deepEqual(details.body.data.listingLapse, { reason: "repaid", amount: "123.45", txHash: hash });
    // The treasury's signed listing, filled by alice, sits at its fill's block, before alice's own listing.
    const listings = details.body.data.listings.map((l: any) => [l.seller, l.status, l.lapseReason, l.closedTxHash]);
    const treasury = stack.deployment.treasury.toLowerCase();
    assert.deepEqual(listings, [
      [treasury, "sold", null, listings[0][3]],
      [alice.wallet!.address.toLowerCase(), "lapsed", "repaid", hash],
    ]);
    const refused = await call("POST", `/nfts/${loan.tokenId}/buy`, bob, { expectedPrice: "2990" });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.message, "This listing lapsed: the borrower repaid part of the loan since it was listed, so it can no longer be bought");

    const notice = `Your listing of note #${loan.tokenId} lapsed: the borrower repaid $123.45. List it again at a new price.`;
    const stored = (await notificationsOf(stack.api, alice.id)).filter((n) => n.type === "listing_lapsed");
    assert.deepEqual(
      stored.map((n) => [n.message, n.title, n.link]),
      [[notice, "Listing lapsed", `/nft/${loan.tokenId}`]],
    );
    const pushed = await eventually(async () => aliceEvents.named("notification:new").find((p) => p.message === notice));
    assert.equal(pushed.type, "listing_lapsed");
  });

  it("the treasury's listing at 100% of par survives each repayment: offered at the new par at once, never listed again, and a buy at that price fills", async () => {
    await stack.lifecycle.startJobs({ watchIntervalMs: 3_600_000 });
    const loan = await approve("4000");
    await synced();
    assert.equal((await offered()).nfts.get(String(loan.tokenId)), formatUsdAmount(await par(loan.tokenId)));
    const [signed] = await treasuryListingsOf(loan.tokenId);
    for (const amount of [100n * USD, 77_777_777n]) {
      await repay(loan.tokenId, amount);
      await synced();
      const expected = await par(loan.tokenId);
      assert.equal((await offered()).nfts.get(String(loan.tokenId)), formatUsdAmount(expected), "offered at exactly the new par: the outstanding principal plus the interest accrued");
    }
    assert.deepEqual(
      (await treasuryListingsOf(loan.tokenId)).map((o) => o.hash),
      [signed.hash],
      "the one signed listing, never a second",
    );
    assert.deepEqual(await listingsOf(loan.tokenId), [], "and nothing on-chain");
    assert.equal((await stack.services.watcher.runOnce()).defaulted, 0);
    const summary = await call("GET", "/admin/treasury", admin);
    const note = summary.body.data.notes.find((n: any) => n.tokenId === String(loan.tokenId));
    assert.deepEqual([note.listed, note.listingPrice], [true, formatUsdAmount(await par(loan.tokenId))]);
    const treasuryNotices = await db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.type, "listing_lapsed"), eq(notifications.userId, admin.id)));
    assert.deepEqual(treasuryNotices, [], "no lapse, no notice");

    const price = formatUsdAmount(await par(loan.tokenId));
    await buyAs(bob, loan.tokenId, price);
    await synced();
    const owner = (await stack.chain.readContract({ address: contracts().loanNote, abi: loanNoteAbi, functionName: "ownerOf", args: [loan.tokenId] })) as string;
    assert.equal(owner.toLowerCase(), bob.wallet!.address.toLowerCase());
    const history = (await call("GET", `/nfts/${loan.tokenId}`, alice)).body.data.listings;
    assert.deepEqual(
      history.map((l: any) => [l.status, l.seller, l.price]),
      [["sold", stack.deployment.treasury.toLowerCase(), price]],
    );
    assert.equal((await loanRow(loan.id)).listingStatus, "listed");
  });

  it("a default makes the treasury's par listing lapse for good: it is not listed again and the marketplace no longer offers it", async () => {
    const loan = await approve("2000", 1);
    await synced();
    assert.equal((await offered()).nfts.get(String(loan.tokenId)), formatUsdAmount(await par(loan.tokenId)));
    await stack.rpc("evm_increaseTime", [70 * 86_400]);
    await stack.rpc("evm_mine", []);
    const originator = createWalletClient({ account: privateKeyToAccount(DEV_ACCOUNTS.originator), chain: foundry, transport: http(stack.anvil.rpcUrl) });
    const hash = await originator.writeContract({ address: contracts().loanNote, abi: loanNoteAbi, functionName: "markDefaulted", args: [loan.tokenId] });
    assert.equal((await stack.chain.waitForTransactionReceipt({ hash })).status, "success");
    await synced();

    await synced();
    assert.ok(!(await offered()).nfts.has(String(loan.tokenId)), "a par listing cannot fill a defaulted note");
    const summary = await call("GET", "/admin/treasury", admin);
    const note = summary.body.data.notes.find((n: any) => n.tokenId === String(loan.tokenId));
    assert.equal(note.listed, false);
    const details = await call("GET", `/nfts/${loan.tokenId}`, alice);
    assert.equal(details.body.data.marketplaceStatus, "unlisted");
    assert.deepEqual(
      details.body.data.listings.map((l: any) => l.status),
      ["lapsed"],
    );
    assert.equal((await treasuryListingsOf(loan.tokenId)).length, 1, "not listed again");
  });

  it("a buy by the treasury's par listing is refused once the treasury moved the note, though the mirror is behind", async () => {
    const loan = await approve("1500");
    await synced();
    const price = formatUsdAmount(await par(loan.tokenId));
    assert.equal((await offered()).nfts.get(String(loan.tokenId)), price);
    await indexer.stop();
    const treasury = createWalletClient({ account: privateKeyToAccount(DEV_ACCOUNTS.treasury), chain: foundry, transport: http(stack.anvil.rpcUrl) });
    const moved = await treasury.writeContract({
      address: contracts().loanNote,
      abi: loanNoteAbi,
      functionName: "transferFrom",
      args: [stack.deployment.treasury as Address, alice.wallet!.address, loan.tokenId],
    });
    assert.equal((await stack.chain.waitForTransactionReceipt({ hash: moved })).status, "success");
    const late = await call("POST", `/nfts/${loan.tokenId}/buy`, bob, { expectedPrice: price });
    assert.deepEqual([late.status, late.body.message], [409, "This listing is stale: the note has moved since it was listed, so it can no longer be bought"]);
    indexer = startIndexer({ db: stack.api.database.db, rpcUrl: stack.anvil.rpcUrl, deployment: stack.deployment, pollIntervalMs: 50 });
    await synced();
    assert.ok(!(await offered()).nfts.has(String(loan.tokenId)), "and once the mirror catches up, it is off the market");
  });

  it("a buy by a holder's par listing is refused once the note defaulted, though the mirror is behind", async () => {
    const loan = await approve("1200", 1);
    await synced();
    await buyAs(alice, loan.tokenId, formatUsdAmount(await par(loan.tokenId)));
    await publishOrder(stack.api, alice, { kind: "listing", tokenId: loan.tokenId.toString(), parBps: 9900, expiresInDays: 180 });
    await synced();
    const price = formatUsdAmount(await par(loan.tokenId, 9900n));
    assert.equal((await offered()).nfts.get(String(loan.tokenId)), price);
    await indexer.stop();
    try {
      await stack.rpc("evm_increaseTime", [70 * 86_400]);
      await stack.rpc("evm_mine", []);
      const originator = createWalletClient({ account: privateKeyToAccount(DEV_ACCOUNTS.originator), chain: foundry, transport: http(stack.anvil.rpcUrl) });
      const defaulted = await originator.writeContract({ address: contracts().loanNote, abi: loanNoteAbi, functionName: "markDefaulted", args: [loan.tokenId] });
      assert.equal((await stack.chain.waitForTransactionReceipt({ hash: defaulted })).status, "success");
      // The contract refuses the fill as stale (OrderStale: the note is no longer active) before it asks how late it is.
      const late = await call("POST", `/nfts/${loan.tokenId}/buy`, bob, { expectedPrice: price });
      assert.deepEqual([late.status, late.body.message, late.body.data ?? null], [409, "This listing is stale: the note has moved since it was listed, so it can no longer be bought", null]);
    } finally {
      // Whatever the answer, the indexer runs again for the tests that follow.
      indexer = startIndexer({ db: stack.api.database.db, rpcUrl: stack.anvil.rpcUrl, deployment: stack.deployment, pollIntervalMs: 50 });
    }
    await synced();
    assert.ok(!(await offered()).nfts.has(String(loan.tokenId)), "and once the mirror catches up, it is off the market");
  });

  it("a note's listing history places a signed listing by the chain's clock, which may run months ahead of the server's", async () => {
    const loan = await approve("1500");
    await synced();
    await stack.rpc("evm_increaseTime", [100 * 86_400]);
    await stack.rpc("evm_mine", []);
    // Three installments have fallen due meanwhile: the borrower pays them, as a late note is sold by no listing.
    assert.ok(await payPastDue(stack, borrower.wallet!, loan.tokenId), "the note was late");
    await buyAs(alice, loan.tokenId, formatUsdAmount(await par(loan.tokenId)));
    await listOnChain(stack, alice.wallet!, loan.tokenId, 1_490_000_000n);
    await repay(loan.tokenId, 10_000_000n);
    await synced();

    await publishOrder(stack.api, alice, { kind: "listing", tokenId: loan.tokenId.toString(), parBps: 9900 });

    const history = (await call("GET", `/nfts/${loan.tokenId}`, alice)).body.data.listings;
    const seller = alice.wallet!.address.toLowerCase();
    assert.deepEqual(
      history.map((l: any) => [l.seller, l.status]),
      [
        [stack.deployment.treasury.toLowerCase(), "sold"],
        [seller, "lapsed"],
        [seller, "active"],
      ],
    );
    const times = history.map((l: any) => Date.parse(l.time));
    assert.ok(times[2] >= times[1] && times[1] >= times[0], `times in order: ${history.map((l: any) => l.time)}`);
    assert.ok(times[2] > Date.now() + 50 * 86_400_000, "the signed listing carries the chain's time, not the server's");
  });
});
