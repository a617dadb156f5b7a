import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { chainCursors, chainNotes } from "#db/schema/chain";
import { createTestDatabase, type TestDatabase } from "#db/testing";
import { startIndexer, type BatchInfo, type Indexer } from "./sync";
import { startTestChain, type TestChain } from "#testing/chain";
import { compareWithChain } from "./verify";

let chain: TestChain;
let database: TestDatabase;
/** The block each note was minted in. */
const mintedIn = new Map<string, number>();

before(async () => {
  [chain, database] = await Promise.all([startTestChain(), createTestDatabase()]);
  for (let id = 1n; id <= 8n; id++) {
    const hash = await chain.originate(id);
    mintedIn.set(String(id), Number((await chain.publicClient.waitForTransactionReceipt({ hash })).blockNumber));
  }
});

after(async () => {
  await database?.drop();
  await chain?.stop();
});

/** The mirror's cursor and notes, and the notes the chain had minted up to that cursor. */
async function mirror() {
  const [cursor] = await database.db.select().from(chainCursors);
  const notes = (await database.db.select({ id: chainNotes.tokenId }).from(chainNotes)).map((row) => String(row.id)).sort();
  const expected = [...mintedIn]
    .filter(([, block]) => block <= (cursor?.blockNumber ?? -1))
    .map(([id]) => id)
    .sort();
  return { cursor: cursor?.blockNumber ?? null, notes, expected };
}

/** Two-block batches, so the backfill of the eight mints takes several. */
function twoBlockIndexer(hooks: { beforeCommit?(info: BatchInfo): void; onBatch?(info: BatchInfo): void }): Indexer {
  return startIndexer({ db: database.db, rpcUrl: chain.rpcUrl, deployment: chain.deployment, pollIntervalMs: 50, range: { initial: 2, max: 2 }, ...hooks });
}

/** A promise and the function that settles it, for a hook that fires inside the indexer. */
function signal<T>(): { promise: Promise<T>; fire(value: T): void } {
  let fire!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (fire = resolve));
  return { promise, fire };
}

test("a stop asked for while a batch commits lets that batch commit whole and starts no other", async () => {
  const committed: BatchInfo[] = [];
  const stopAsked = signal<Promise<void>>();
  let inFlight: BatchInfo | null = null;
  const indexer: Indexer = twoBlockIndexer({
    beforeCommit(info) {
      // Inside the second batch's transaction, its rows written but not committed.
      if (committed.length === 1 && !inFlight) {
        inFlight = info;
        stopAsked.fire(indexer.stop());
      }
    },
    onBatch: (info) => void committed.push(info),
  });
  // Awaits the hook itself, not a clock: however slow the machine, the stop comes inside the second batch.
  await await stopAsked.promise;

  assert.equal(indexer.status().role, "stopped");
  assert.deepEqual(committed, [committed[0], inFlight], "the batch in flight committed, and no batch after it");
  const { cursor, notes, expected } = await mirror();
  assert.equal(cursor, inFlight!.to, "the cursor moved with the batch's rows, in the same transaction");
  assert.deepEqual(notes, expected, "every note up to the cursor, none beyond");
  assert.ok(notes.length < mintedIn.size, "the stop came before the backfill was done");
});

test("a stop as the batch's transaction fails rolls the whole batch back", async () => {
  const before = await mirror();
  let stopping: Promise<void> | null = null;
  const stopAsked = signal<Promise<void>>();
  let committed = 0;
  const indexer: Indexer = twoBlockIndexer({
    beforeCommit() {
      if (!stopping) stopAsked.fire((stopping = indexer.stop()));
      throw new Error("the connection was lost mid-batch");
    },
    onBatch: () => void committed++,
  });
  await await stopAsked.promise;

  assert.equal(committed, 0);
  assert.match(String(indexer.status().lastError), /connection was lost mid-batch/);
  assert.deepEqual(await mirror(), before, "neither the rows nor the cursor of the failed batch are there");
});

test("after either stop, the next start mirrors the rest exactly once", async () => {
  const indexer = startIndexer({ db: database.db, rpcUrl: chain.rpcUrl, deployment: chain.deployment, pollIntervalMs: 50 });
  try {
    await indexer.caughtUp();
    const { notes } = await mirror();
    assert.deepEqual(notes, [...mintedIn.keys()].sort());
    assert.deepEqual(await compareWithChain(database.db, chain.publicClient, chain.deployment), []);
  } finally {
    await indexer.stop();
  }
});
