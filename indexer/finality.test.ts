import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { asc, eq, sql } from "drizzle-orm";
import { chainBlocks, chainNotes, chainSales, chainUndo } from "#db/schema/chain";
import { createTestDatabase, type TestDatabase } from "#db/testing";
import { reindex } from "./reindex";
import { startIndexer, type Indexer } from "./sync";
import { startTestChain, type TestChain } from "#testing/chain";
import { compareWithChain, mirrorSnapshot } from "./verify";

/** Few enough blocks that most of the test chain is final, so the journal-less path does the bulk of the work. */
const FINALITY_DEPTH = 4;
const USD = 1_000_000n;
let chain: TestChain;
let database: TestDatabase;
let indexer: Indexer | null = null;
const logs: string[] = [];
const logger = { info: (m: string) => logs.push(m), warn: (m: string) => logs.push(m), error: (m: string) => logs.push(m) };

before(async () => {
  [chain, database] = await Promise.all([startTestChain(), createTestDatabase()]);
});

after(async () => {
  await indexer?.stop();
  await database?.drop();
  await chain?.stop();
});

const head = async () => Number(await chain.publicClient.getBlockNumber());
const noteIds = async () => (await database.db.select({ id: chainNotes.tokenId }).from(chainNotes).orderBy(asc(chainNotes.tokenId))).map((row) => row.id);
const lowest = async (table: typeof chainBlocks | typeof chainUndo) => {
  const column = table === chainBlocks ? chainBlocks.number : chainUndo.blockNumber;
  const [row] = await database.db.select({ min: sql<number | null>`min(${column})::int` }).from(table);
  return row.min;
};

test("final blocks are mirrored without undo journal or block hashes, which are kept only for the last blocks", async () => {
  const { treasury, investor } = chain.actors;
  await chain.originate(1n);
  await chain.list(1n, 1_000n * USD);
  await chain.buy(1n, 1_000n * USD, investor);
  await chain.originate(2n);
  await chain.deposit(2n, treasury);
  await chain.repay(2n, 100n * USD);
  await chain.withdrawCredits(treasury);
  await chain.rpc("anvil_mine", ["0x8"]);

  indexer = startIndexer({ db: database.db, rpcUrl: chain.rpcUrl, deployment: chain.deployment, pollIntervalMs: 50, finalityDepth: FINALITY_DEPTH, logger });
  await indexer.caughtUp();
  assert.deepEqual(await compareWithChain(database.db, chain.publicClient, chain.deployment), []);
  const finalized = (await head()) - FINALITY_DEPTH;
  assert.equal((await database.db.select().from(chainUndo)).length, 0, "the events all lie in final blocks");
  assert.ok(((await lowest(chainBlocks)) ?? Infinity) > finalized - 1, "no hash is kept below the last final block");
});

test("a reorg within the unfinalised blocks rolls back with the journal and replays, and a rebuild equals the live mirror", async () => {
  await indexer!.caughtUp();
  const snapshot = await chain.rpc<string>("evm_snapshot");
  await chain.originate(3n);
  await chain.list(3n, 300n * USD);
  await indexer!.caughtUp();
  assert.deepEqual(await noteIds(), [1n, 2n, 3n]);
  assert.ok((await database.db.select().from(chainUndo)).length > 0, "changes in unfinalised blocks are journaled");
  const oldHead = await head();

  logs.length = 0;
  assert.equal(await chain.rpc("evm_revert", [snapshot]), true);
  await chain.originate(4n);
  while ((await head()) <= oldHead) await chain.rpc("evm_mine");
  await indexer!.caughtUp();

  assert.deepEqual(await compareWithChain(database.db, chain.publicClient, chain.deployment), []);
  assert.deepEqual(await noteIds(), [1n, 2n, 4n]);
  assert.ok(
    logs.some((m) => /rolling back/.test(m)),
    `rolled back through the journal: ${logs.join(" / ")}`,
  );
  assert.ok(!logs.some((m) => /rebuilding/.test(m)), `not by a rebuild: ${logs.join(" / ")}`);
  assert.equal((await database.db.select().from(chainSales)).length, 1, "the sale in a final block stays");
  const finalized = (await head()) - FINALITY_DEPTH;
  const [{ stale }] = await database.db
    .select({ stale: sql<number>`count(*)::int` })
    .from(chainUndo)
    .where(sql`${chainUndo.blockNumber} <= ${finalized}`);
  assert.equal(stale, 0, "journal entries of blocks that became final are dropped");

  await indexer!.stop();
  indexer = null;
  const live = await mirrorSnapshot(database.db, chain.deployment.chainId);
  const other = await createTestDatabase();
  try {
    await reindex({ db: other.db, rpcUrl: chain.rpcUrl, deployment: chain.deployment, finalityDepth: FINALITY_DEPTH });
    assert.deepEqual(await mirrorSnapshot(other.db, chain.deployment.chainId), live);
    const [note4] = await other.db.select().from(chainNotes).where(eq(chainNotes.tokenId, 4n));
    assert.equal(note4.status, "active");
  } finally {
    await other.drop();
  }
});
