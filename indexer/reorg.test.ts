import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { asc, eq } from "drizzle-orm";
import { chainNotes, chainOutbox, chainSales } from "#db/schema/chain";
import { createTestDatabase, type TestDatabase } from "#db/testing";
import { reindex } from "./reindex";
import { startIndexer, type Indexer } from "./sync";
import { startTestChain, type TestChain } from "#testing/chain";
import { compareWithChain, mirrorSnapshot } from "./verify";

const USD = 1_000_000n;
let chain: TestChain;
let database: TestDatabase;
let indexer: Indexer;

before(async () => {
  [chain, database] = await Promise.all([startTestChain(), createTestDatabase()]);
  indexer = startIndexer({ db: database.db, rpcUrl: chain.rpcUrl, deployment: chain.deployment, pollIntervalMs: 50 });
  await indexer.caughtUp();
});

after(async () => {
  await indexer?.stop();
  await database?.drop();
  await chain?.stop();
});

const noteIds = async () => (await database.db.select({ id: chainNotes.tokenId }).from(chainNotes).orderBy(asc(chainNotes.tokenId))).map((row) => row.id);

test("a reorg made on the chain rolls the mirror back to the common ancestor, corrects pushed events and replays the new blocks", async () => {
  await chain.originate(1n);
  await chain.list(1n, 1_000n * USD);
  await indexer.caughtUp();
  const snapshot = await chain.rpc<string>("evm_snapshot");
  const forkPoint = Number(await chain.publicClient.getBlockNumber());

  await chain.originate(2n);
  await chain.buy(1n, 1_000n * USD);
  await chain.repay(1n, 10n * USD);
  await indexer.caughtUp();
  assert.deepEqual(await noteIds(), [1n, 2n]);
  const pushed = await database.db.select().from(chainOutbox).orderBy(asc(chainOutbox.id));
  const doomed = pushed.filter((row) => row.blockNumber > forkPoint);
  assert.ok(doomed.length >= 3, "events of the blocks about to vanish were pushed");
  const oldHead = Number(await chain.publicClient.getBlockNumber());

  assert.equal(await chain.rpc("evm_revert", [snapshot]), true);
  // Different blocks, and more of them than were undone: the indexer sees changed hashes, not a shorter chain.
  await chain.originate(3n);
  await chain.updatePrice(1n, 900n * USD);
  while (Number(await chain.publicClient.getBlockNumber()) <= oldHead) await chain.rpc("evm_mine");
  await indexer.caughtUp();

  assert.deepEqual(await compareWithChain(database.db, chain.publicClient, chain.deployment), []);
  assert.deepEqual(await noteIds(), [1n, 3n]);
  assert.equal((await database.db.select().from(chainSales)).length, 0);

  const after = await database.db.select().from(chainOutbox).orderBy(asc(chainOutbox.id));
  for (const row of doomed) {
    assert.equal(after.find((r) => r.id === row.id)?.reverted, true);
    const correction = after.find((r) => r.correctsId === row.id);
    assert.ok(correction, `event ${row.id} (${row.event}) is followed by a correction`);
    assert.equal(correction.kind, "correction");
    assert.deepEqual(correction.rooms, row.rooms);
    assert.equal((correction.payload as { reverted?: boolean }).reverted, true);
    assert.ok(correction.id > row.id);
  }
  assert.ok(
    after.some((row) => row.kind === "event" && (row.payload as { type?: string }).type === "price_updated"),
    "the new blocks' events are pushed",
  );
});

test("a reorg that happens while the indexer is stopped is found by the changed hash of the mirror's block at the restart", async () => {
  await chain.originate(4n);
  await indexer.caughtUp();
  const snapshot = await chain.rpc<string>("evm_snapshot");
  await chain.originate(5n);
  await chain.list(5n, 500n * USD);
  await indexer.caughtUp();
  assert.deepEqual(await noteIds(), [1n, 3n, 4n, 5n]);
  const oldHead = Number(await chain.publicClient.getBlockNumber());
  // Stopped before the revert, started after the new chain is longer than the old one: no poll ever sees a
  // shorter chain, so only the cursor block's changed hash can tell the indexer its blocks are gone.
  await indexer.stop();
  assert.equal(await chain.rpc("evm_revert", [snapshot]), true);
  await chain.originate(6n);
  while (Number(await chain.publicClient.getBlockNumber()) <= oldHead) await chain.rpc("evm_mine");
  const logs: string[] = [];
  const logger = { info: (m: string) => logs.push(m), warn: (m: string) => logs.push(m), error: (m: string) => logs.push(m) };
  indexer = startIndexer({ db: database.db, rpcUrl: chain.rpcUrl, deployment: chain.deployment, pollIntervalMs: 50, logger });
  await indexer.caughtUp();

  assert.ok(
    logs.some((m) => m.includes(`reorg (block ${oldHead} changed)`)),
    `found by the hash of block ${oldHead}: ${logs.join(" / ")}`,
  );
  assert.deepEqual(await compareWithChain(database.db, chain.publicClient, chain.deployment), []);
  assert.deepEqual(await noteIds(), [1n, 3n, 4n, 6n]);
  assert.equal((await database.db.select().from(chainNotes).where(eq(chainNotes.tokenId, 5n))).length, 0);
});

test("a chain that lost its newest blocks (its head below the mirror's) is rolled back, and equals a rebuilt mirror", async () => {
  await indexer.caughtUp();
  const snapshot = await chain.rpc<string>("evm_snapshot");
  await chain.originate(7n);
  await chain.list(7n, 700n * USD);
  await chain.cancel(7n);
  await indexer.caughtUp();
  assert.ok((await noteIds()).includes(7n));

  await chain.rpc("evm_revert", [snapshot]);
  await indexer.caughtUp();
  assert.ok(!(await noteIds()).includes(7n));
  assert.deepEqual(await compareWithChain(database.db, chain.publicClient, chain.deployment), []);

  await chain.originate(8n);
  await indexer.caughtUp();
  await indexer.stop();
  const live = await mirrorSnapshot(database.db, chain.deployment.chainId);
  const other = await createTestDatabase();
  try {
    await reindex({ db: other.db, rpcUrl: chain.rpcUrl, deployment: chain.deployment });
    assert.deepEqual(await mirrorSnapshot(other.db, chain.deployment.chainId), live);
  } finally {
    await other.drop();
  }
  const [note8] = await database.db.select().from(chainNotes).where(eq(chainNotes.tokenId, 8n));
  assert.equal(note8.status, "active");
});
