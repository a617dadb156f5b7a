import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { asc, eq } from "drizzle-orm";
import { chainOrderCounters, chainOrderFills, chainOutbox } from "#db/schema/chain";
import { users } from "#db/schema/users";
import { createTestDatabase, type TestDatabase } from "#db/testing";
import { reindex } from "./reindex";
import { startIndexer, type Indexer } from "./sync";
import { startTestChain, type TestChain } from "#testing/chain";
import { loanNoteAbi } from "#domain/abis";
import { formatUsdAmount } from "#domain/money";
import { parPrice } from "#domain/orders";
import { compareOrdersWithChain, compareWithChain, mirrorSnapshot, type KnownOrder } from "./verify";

const USD = 1_000_000n;
const PRINCIPAL = 1_000n * USD;
let chain: TestChain;
let database: TestDatabase;
let indexer: Indexer | null = null;
/** Every order the tests signed, as their signers know them: what the mirror is compared with the chain on. */
const known: KnownOrder[] = [];

function remember(kind: KnownOrder["kind"], signed: { hash: string; order: { parBps: bigint } & ({ seller: string } | { buyer: string }) }) {
  const signer = "seller" in signed.order ? signed.order.seller : signed.order.buyer;
  known.push({ kind, signer, hash: signed.hash, parBps: signed.order.parBps });
}

before(async () => {
  [chain, database] = await Promise.all([startTestChain(), createTestDatabase()]);
});

after(async () => {
  await indexer?.stop();
  await database?.drop();
  await chain?.stop();
});

/** A par order's price on the note now, as the contract prices its fill: the dirty price (principal plus accrued interest). */
async function parNow(tokenId: bigint, parBps: bigint): Promise<bigint> {
  const state = await chain.publicClient.readContract({ address: chain.deployment.contracts.loanNote as `0x${string}`, abi: loanNoteAbi, functionName: "noteStateOf", args: [tokenId] });
  return parPrice({ principal: state.outstanding, interest: state.interest }, parBps);
}

async function mirrorEqualsChain() {
  assert.deepEqual(await compareWithChain(database.db, chain.publicClient, chain.deployment), []);
  assert.deepEqual(await compareOrdersWithChain(database.db, chain.publicClient, chain.deployment, known), []);
}

test("a backfill mirrors signed orders' fills (a par listing, an offer, a matching offer), a cancellation and a counter as the chain records them", async () => {
  const { treasury, investor, other } = chain.actors;
  for (const id of [1n, 2n, 3n]) await chain.originate(id, PRINCIPAL);

  const parListing = await chain.signListing(1n, { parBps: 10_000n });
  remember("listing", parListing);
  const parListingPrice = await parNow(1n, 10_000n);
  await chain.fillListing(parListing, parListingPrice, investor);

  const offer = await chain.signOffer(2n, { price: 950n * USD }, investor);
  remember("offer", offer);
  await chain.acceptOffer(offer, treasury, 950n * USD);

  const matching = await chain.signMatchingOffer({ parBps: 9_800n, budget: 5_000n * USD }, other);
  remember("matchingOffer", matching);
  const matchingPrice = await parNow(3n, 9_800n);
  await chain.acceptMatchingOffer(matching, 3n, treasury, matchingPrice);

  const withdrawn = await chain.signListing(1n, { price: 1_010n * USD }, investor);
  remember("listing", withdrawn);
  await chain.cancelOrders(investor, [withdrawn.hash]);
  const forgotten = await chain.signOffer(3n, { parBps: 9_000n }, investor);
  remember("offer", forgotten);
  await chain.incrementCounter(investor);

  indexer = startIndexer({ db: database.db, rpcUrl: chain.rpcUrl, deployment: chain.deployment, pollIntervalMs: 50 });
  await indexer.caughtUp();

  await mirrorEqualsChain();
  const mirror = await mirrorSnapshot(database.db, chain.deployment.chainId);
  assert.deepEqual(
    mirror.orderFills.map((f) => {
      const fill = f as Record<string, string>;
      return [fill.orderHash, fill.tokenId, fill.seller, fill.buyer, fill.price];
    }),
    [
      [parListing.hash, "1", treasury.toLowerCase(), investor.toLowerCase(), String(parListingPrice)],
      [offer.hash, "2", treasury.toLowerCase(), investor.toLowerCase(), String(950n * USD)],
      [matching.hash, "3", treasury.toLowerCase(), other.toLowerCase(), String(matchingPrice)],
    ],
  );
  assert.deepEqual(
    mirror.orderCancellations.map((c) => [(c as Record<string, string>).signer, (c as Record<string, string>).orderHash]),
    [[investor.toLowerCase(), withdrawn.hash]],
  );
  assert.deepEqual(
    mirror.orderCounters.map((c) => [(c as Record<string, string>).signer, (c as Record<string, string>).counter]),
    [[investor.toLowerCase(), "1"]],
  );
  const note3 = mirror.notes.find((n) => (n as { tokenId: string }).tokenId === "3") as Record<string, unknown>;
  assert.equal(note3.holder, other.toLowerCase(), "the note moved to the matching offer's buyer");
  assert.equal((await database.db.select().from(chainOutbox)).length, 0, "history replayed on a fresh mirror is not pushed");
});

test("a fill followed live pushes the sale and the book's change to the marketplace and to the accounts of seller and buyer", async () => {
  const { investor, other } = chain.actors;
  const [buyer] = await database.db.insert(users).values({ firstName: "Olga", lastName: "Other", walletAddress: other.toLowerCase() }).returning({ id: users.id });
  // The investor holds note 2 (bought through the offer above) and lists it at 99% of par; the other buys it.
  const listing = await chain.signListing(2n, { parBps: 9_900n }, investor);
  remember("listing", listing);
  const price = await parNow(2n, 9_900n);
  await chain.fillListing(listing, price, other);
  await indexer!.caughtUp();

  await mirrorEqualsChain();
  const rows = await database.db.select().from(chainOutbox).orderBy(asc(chainOutbox.id));
  const fillRows = rows.filter((row) => (row.payload as { orderHash?: string; hash?: string }).orderHash === listing.hash || (row.payload as { hash?: string }).hash === listing.hash);
  assert.deepEqual(
    fillRows.map((row) => row.event),
    ["marketplace:update", "orderbook:update"],
  );
  const [sold, book] = fillRows;
  assert.deepEqual(sold.payload, { type: "sold", amount: formatUsdAmount(price), nftId: "2", tokenId: "2", txHash: sold.txHash, orderHash: listing.hash });
  assert.deepEqual(book.payload, {
    tokenId: "2",
    hash: listing.hash,
    status: "filled",
    amount: formatUsdAmount(price),
    seller: investor.toLowerCase(),
    buyer: other.toLowerCase(),
    txHash: book.txHash,
  });
  for (const row of fillRows) assert.deepEqual([...row.rooms].sort(), ["marketplace", `user:${buyer.id}`].sort(), "the investor's wallet has no account here");
});

test("a reorg takes a mirrored fill and a counter back: the fill disappears, the counter is restored, and their pushes are corrected", async () => {
  const { investor, other } = chain.actors;
  await indexer!.caughtUp();
  const snapshot = await chain.rpc<string>("evm_snapshot");
  const forkPoint = Number(await chain.publicClient.getBlockNumber());

  // The other holds notes 2 and 3 now; the investor's offer on note 3 at a fixed price is accepted.
  const offer = await chain.signOffer(3n, { price: 900n * USD }, investor);
  await chain.acceptOffer(offer, other, 900n * USD);
  await chain.incrementCounter(investor);
  await indexer!.caughtUp();
  const fills = async () => (await database.db.select().from(chainOrderFills).where(eq(chainOrderFills.orderHash, offer.hash))).length;
  const investorCounter = async () => (await database.db.select().from(chainOrderCounters).where(eq(chainOrderCounters.signer, investor.toLowerCase())))[0]?.counter;
  assert.equal(await fills(), 1);
  assert.equal(await investorCounter(), 2n);
  const doomed = (await database.db.select().from(chainOutbox)).filter((row) => row.blockNumber > forkPoint);
  assert.ok(
    doomed.some((row) => row.event === "orderbook:update"),
    "the fill's book change was pushed",
  );
  const oldHead = Number(await chain.publicClient.getBlockNumber());

  assert.equal(await chain.rpc("evm_revert", [snapshot]), true);
  while (Number(await chain.publicClient.getBlockNumber()) <= oldHead) await chain.rpc("evm_mine");
  await indexer!.caughtUp();

  assert.equal(await fills(), 0, "the fill the chain took back is gone from the mirror");
  assert.equal(await investorCounter(), 1n, "the counter is what it was before the reorged blocks");
  known.push({ kind: "offer", signer: investor, hash: offer.hash, parBps: 0n });
  await mirrorEqualsChain();
  const after = await database.db.select().from(chainOutbox);
  for (const row of doomed) {
    assert.equal(after.find((r) => r.id === row.id)?.reverted, true);
    assert.ok(
      after.some((r) => r.correctsId === row.id && r.kind === "correction"),
      `event ${row.id} (${row.event}) is corrected`,
    );
  }
});

test("the orders' mirror rebuilt from the chain equals the one built live", async () => {
  await indexer!.caughtUp();
  await indexer!.stop();
  indexer = null;
  const live = await mirrorSnapshot(database.db, chain.deployment.chainId);
  await reindex({ db: database.db, rpcUrl: chain.rpcUrl, deployment: chain.deployment, range: { initial: 1, max: 1 } });
  assert.deepEqual(await mirrorSnapshot(database.db, chain.deployment.chainId), live);
  assert.equal(live.orderFills.length, 4);
  await mirrorEqualsChain();
});
