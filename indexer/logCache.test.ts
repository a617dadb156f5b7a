import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { asc, sql } from "drizzle-orm";
import type { Hex } from "viem";
import { chainLogCache, chainLogRanges } from "#db/schema/logCache";
import { createTestDatabase, type TestDatabase } from "#db/testing";
import { startTestChain, type TestChain } from "#testing/chain";
import { collateralMoves, type CollateralMoves } from "#testing/collateral";
import { startRpcCounter, type RpcCounter } from "#testing/rpcCounter";
import { reindex } from "./reindex";
import { startIndexer, type Indexer } from "./sync";
import { compareWithChain, mirrorSnapshot } from "./verify";

const USD = 1_000_000n;
let chain: TestChain;
let moves: CollateralMoves;
let database: TestDatabase;
let counter: RpcCounter;
let indexer: Indexer | null = null;

before(async () => {
  [chain, database] = await Promise.all([startTestChain(), createTestDatabase()]);
  moves = collateralMoves(chain);
  counter = await startRpcCounter(chain.rpcUrl);
});

after(async () => {
  await indexer?.stop();
  await counter?.close();
  await database?.drop();
  await chain?.stop();
});

const follow = async () => {
  indexer ??= startIndexer({ db: database.db, rpcUrl: chain.rpcUrl, deployment: chain.deployment, pollIntervalMs: 50 });
  await indexer.caughtUp();
};
const stop = async () => {
  await indexer?.stop();
  indexer = null;
};

/** The mirror a fresh database builds from the node alone. */
async function fetchedAfresh(): Promise<Record<string, unknown[]>> {
  const fresh = await createTestDatabase();
  try {
    await reindex({ db: fresh.db, rpcUrl: chain.rpcUrl, deployment: chain.deployment });
    return await mirrorSnapshot(fresh.db, chain.deployment.chainId);
  } finally {
    await fresh.drop();
  }
}

/** A rebuild of the test's database through the counting relay: the calls it made to the node. */
async function rebuildCounted(): Promise<number> {
  const before = counter.total();
  await reindex({ db: database.db, rpcUrl: counter.url, deployment: chain.deployment });
  return counter.total() - before;
}

async function someHistory(first: bigint): Promise<void> {
  const { investor, other } = chain.actors;
  await chain.originate(first);
  await chain.originate(first + 1n);
  await chain.list(first, 1_000n * USD);
  await chain.buy(first, 1_000n * USD);
  await chain.repay(first, 25n * USD);
  await chain.deposit(first, investor);
  await chain.withdrawCredits(investor);
  const art = await moves.deployCollection();
  await moves.mint(art, investor);
  await moves.transferPiece(art, investor, other, 1n);
  // Allowed after its pieces moved: its past is caught up from the deploy block, and cached with the batch.
  await moves.allow(art);
  await moves.mint(art, other);
}

test("a rebuild from the log cache equals a fresh fetch-and-index row for row and asks the node nothing", async () => {
  await someHistory(1n);
  await follow();
  await stop();
  const live = await mirrorSnapshot(database.db, chain.deployment.chainId);
  assert.ok(live.notes.length === 2 && live.nftOwners.length >= 5 && live.vaultMoves.length === 1, "the history reached the mirror");
  const cached = await database.db.select({ n: sql<number>`count(*)::int` }).from(chainLogCache);
  assert.ok(cached[0].n > 0, "the logs were cached with their batches");

  assert.equal(await rebuildCounted(), 0, `no request reached the node: ${JSON.stringify(counter.calls())}`);
  const rebuilt = await mirrorSnapshot(database.db, chain.deployment.chainId);
  assert.deepEqual(rebuilt, live);
  assert.deepEqual(rebuilt, await fetchedAfresh());
  assert.deepEqual(await compareWithChain(database.db, chain.publicClient, chain.deployment), []);
});

test("a reorg prunes the log cache, and the mirror rebuilt from it follows the new chain", async () => {
  await follow();
  const snapshot = await chain.rpc<string>("evm_snapshot");
  const forkPoint = Number(await chain.publicClient.getBlockNumber());
  await chain.originate(10n);
  await chain.list(10n, 500n * USD);
  await follow();
  const doomedBlocks = await cachedBlocksAbove(forkPoint);
  assert.ok(doomedBlocks.length >= 2, "the blocks about to vanish were cached");
  const oldHead = Number(await chain.publicClient.getBlockNumber());

  assert.equal(await chain.rpc("evm_revert", [snapshot]), true);
  await chain.originate(11n);
  await chain.repay(1n, 5n * USD);
  while (Number(await chain.publicClient.getBlockNumber()) <= oldHead) await chain.rpc("evm_mine");
  await follow();
  await stop();

  // Every cached block is the chain's block, and the vanished ones are gone.
  for (const block of await cachedBlocksAbove(forkPoint)) {
    const onChain = await chain.publicClient.getBlock({ blockNumber: BigInt(block.number) });
    assert.equal(block.hash, onChain.hash, `cached block ${block.number} is the chain's`);
  }
  const ranges = await database.db.select().from(chainLogRanges).orderBy(asc(chainLogRanges.fromBlock));
  for (const range of ranges.filter((r) => r.toBlock > forkPoint)) {
    const onChain = await chain.publicClient.getBlock({ blockNumber: BigInt(range.toBlock) });
    assert.equal(range.toHash, onChain.hash, `range ending at ${range.toBlock} ends on the chain's block`);
  }

  const live = await mirrorSnapshot(database.db, chain.deployment.chainId);
  assert.equal(await rebuildCounted(), 0, `no request reached the node: ${JSON.stringify(counter.calls())}`);
  const rebuilt = await mirrorSnapshot(database.db, chain.deployment.chainId);
  assert.deepEqual(rebuilt, live);
  assert.deepEqual(rebuilt, await fetchedAfresh());
  assert.ok(rebuilt.notes.some((note) => (note as { tokenId: string }).tokenId === "11"));
  assert.ok(!rebuilt.notes.some((note) => (note as { tokenId: string }).tokenId === "10"));
  assert.deepEqual(await compareWithChain(database.db, chain.publicClient, chain.deployment), []);
});

test("a rebuild fetches from the node only what the cache lacks", async () => {
  await chain.originate(20n);
  const cut = Number(await chain.publicClient.getBlockNumber());
  await chain.originate(21n);
  await chain.list(21n, 300n * USD);
  await follow();
  await stop();
  const ranges = await database.db.select().from(chainLogRanges);
  assert.equal(ranges.length, 1, "ranges that follow each other are one row");
  // The cache forgets the blocks after `cut`: the mirror reaches past what it holds.
  const cutHash = (await chain.publicClient.getBlock({ blockNumber: BigInt(cut) })).hash;
  await database.db.delete(chainLogCache).where(sql`${chainLogCache.blockNumber} > ${cut}`);
  await database.db.update(chainLogRanges).set({ toBlock: cut, toHash: cutHash });
  const live = await mirrorSnapshot(database.db, chain.deployment.chainId);

  const before = counter.paramsOf("eth_getLogs").length;
  await reindex({ db: database.db, rpcUrl: counter.url, deployment: chain.deployment });
  const asked = counter.paramsOf("eth_getLogs").slice(before) as { fromBlock: string }[][];
  assert.deepEqual(
    asked.map(([filter]) => Number(filter.fromBlock)),
    [cut + 1],
    "one eth_getLogs, from the first block the cache lacks",
  );
  assert.deepEqual(await mirrorSnapshot(database.db, chain.deployment.chainId), live);
  const [range] = await database.db.select().from(chainLogRanges);
  const head = await chain.publicClient.getBlock();
  assert.deepEqual([range.fromBlock, range.toBlock, range.toHash], [chain.deployment.deployBlock, Number(head.number), head.hash], "what was fetched is cached again");
});

async function cachedBlocksAbove(block: number): Promise<{ number: number; hash: Hex }[]> {
  const rows = await database.db
    .selectDistinct({ number: chainLogCache.blockNumber, hash: chainLogCache.blockHash })
    .from(chainLogCache)
    .where(sql`${chainLogCache.blockNumber} > ${block}`)
    .orderBy(asc(chainLogCache.blockNumber));
  return rows.map((row) => ({ number: row.number, hash: row.hash as Hex }));
}
