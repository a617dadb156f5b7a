import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { chainNotes } from "#db/schema/chain";
import { createTestDatabase, type TestDatabase } from "#db/testing";
import { localHeadsUrl } from "./heads";
import { startIndexer, type Indexer } from "./sync";
import { startTestChain, type TestChain } from "#testing/chain";

let chain: TestChain;
let database: TestDatabase;
let indexer: Indexer | null = null;

before(async () => {
  [chain, database] = await Promise.all([startTestChain(), createTestDatabase()]);
});

after(async () => {
  await indexer?.stop();
  await database?.drop();
  await chain?.stop();
});

test("a local node's WebSocket is its HTTP port; a remote provider's is not guessed", () => {
  assert.equal(localHeadsUrl("http://127.0.0.1:8545"), "ws://127.0.0.1:8545/");
  assert.equal(localHeadsUrl("http://localhost:8545/"), "ws://localhost:8545/");
  assert.equal(localHeadsUrl("https://mainnet.example.org/v3/key"), null);
  assert.equal(localHeadsUrl("not a url"), null);
});

test("a block the node announces wakes the follower, whose next poll is an hour away", async () => {
  indexer = startIndexer({ db: database.db, rpcUrl: chain.rpcUrl, deployment: chain.deployment, pollIntervalMs: 3_600_000 });
  await indexer.caughtUp();
  const before = indexer.status().blockNumber!;
  const minted = await chain.publicClient.waitForTransactionReceipt({ hash: await chain.originate(1n) });
  // No caughtUp() here: it would wake the follower itself. Only the new-heads subscription can, so the cursor
  // moving at all is the proof; no clock decides it. The subscription may still be opening on a loaded machine
  // and miss that block's announcement: each later block is announced again, so mine one now and then.
  let waited = 0;
  while (indexer.status().blockNumber === before) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (++waited % 100 === 0) await chain.rpc("evm_mine");
  }
  assert.ok(indexer.status().blockNumber! >= Number(minted.blockNumber), "mirrored up to an announced head without a poll");
  const notes = await database.db.select({ id: chainNotes.tokenId }).from(chainNotes);
  assert.deepEqual(
    notes.map((n) => n.id),
    [1n],
  );
});
