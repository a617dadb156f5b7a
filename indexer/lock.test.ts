import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { connectDatabase, type DatabaseHandle } from "#db/connect";
import { createTestDatabase, type TestDatabase } from "#db/testing";
import { startIndexer, type Indexer } from "./sync";
import { startTestChain, type TestChain } from "#testing/chain";
import { compareWithChain } from "./verify";

let chain: TestChain;
let database: TestDatabase;
let second: DatabaseHandle;
const running: Indexer[] = [];

before(async () => {
  [chain, database] = await Promise.all([startTestChain(), createTestDatabase()]);
  assert.ok(database.url, "this test needs Postgres");
  second = await connectDatabase({ databaseUrl: database.url!, maxConnections: 2, migrate: false });
});

after(async () => {
  for (const indexer of running) await indexer.stop();
  await second?.close();
  await database?.drop();
  await chain?.stop();
});

const waitFor = async (what: string, check: () => boolean) => {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

test("of two indexers on one database, one writes while the other waits, and takes over when the first stops", async () => {
  const options = { rpcUrl: chain.rpcUrl, deployment: chain.deployment, pollIntervalMs: 50 };
  const first = startIndexer({ ...options, db: database.db });
  running.push(first);
  await first.caughtUp();
  const waiting = startIndexer({ ...options, db: second.db });
  running.push(waiting);
  await waitFor("the second indexer to find the lock taken", () => waiting.status().role === "passive");
  assert.equal(first.status().role, "active");

  await chain.originate(1n);
  await chain.list(1n, 1_000_000_000n);
  await waiting.caughtUp(); // answered from the cursor the writer keeps
  assert.equal(waiting.status().role, "passive");
  assert.deepEqual(await compareWithChain(database.db, chain.publicClient, chain.deployment), []);

  await first.stop();
  await chain.originate(2n);
  await waitFor("the second indexer to take over", () => waiting.status().role === "active");
  await waiting.caughtUp();
  assert.deepEqual(await compareWithChain(second.db, chain.publicClient, chain.deployment), []);
});
