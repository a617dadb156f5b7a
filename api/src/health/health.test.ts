import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type { Deployment } from "#domain/deployment";
import { startIndexer, type Indexer } from "#indexer/index";
import { INDEXER_LOCK_NAMESPACE } from "#db/locks";
import { startLoanStack, type LoanStack } from "#testing/loanStack";
import { healthSchema } from "./schema";

let stack: LoanStack;
let indexer: Indexer | null = null;

before(async () => {
  stack = await startLoanStack();
});
after(async () => {
  await indexer?.stop();
  await stack?.close();
});

const health = async () => {
  const answer = await stack.api.call("GET", "/health");
  return { status: answer.status, message: answer.body.message, data: healthSchema.parse(answer.body.data) };
};
const head = async () => Number(await stack.chain.getBlockNumber());
const follow = () => startIndexer({ db: stack.api.database.db, rpcUrl: stack.anvil.rpcUrl, deployment: stack.deployment as Deployment, pollIntervalMs: 50 });

test("with contracts deployed and no indexer, health is degraded: the indexer is not running", async () => {
  const { status, message, data } = await health();
  assert.equal(status, 200);
  assert.equal(data.status, "degraded");
  assert.equal(data.database, "ok");
  assert.equal(data.chain, "ok");
  assert.equal(data.indexer.status, "not running");
  assert.match(message, /indexer not running/);
  // The harness uses the machine's Redis when it answers, else the memory store.
  assert.ok(["ok", "not configured"].includes(data.redis), data.redis);
});

test("an indexer that follows the chain makes it ok, with its block, the head and no lag", async () => {
  indexer = follow();
  await indexer.caughtUp();
  const { status, message, data } = await health();
  assert.equal(status, 200);
  assert.equal(data.status, "ok", message);
  assert.equal(message, "OK");
  assert.equal(data.indexer.status, "ok");
  assert.equal(data.indexer.head, await head());
  assert.equal(data.indexer.blockNumber, data.indexer.head);
  assert.equal(data.indexer.lagBlocks, 0);
  assert.ok(!Number.isNaN(Date.parse(data.indexer.lastIndexedAt ?? "")));
});

test("a mirror more than 20 blocks behind the head is reported behind, with the lag in blocks", async () => {
  await indexer!.stop();
  indexer = null;
  const mirrored = await head();
  await stack.rpc("anvil_mine", ["0x1e"]); // 30 blocks
  // A writer that holds the lock but has not caught up yet (the lock is the indexer's, taken by hand).
  const pool = (stack.api.database.db as unknown as { $client: import("pg").Pool }).$client;
  const writer = await pool.connect();
  try {
    await writer.query("select pg_advisory_lock($1, $2)", [INDEXER_LOCK_NAMESPACE, stack.deployment.chainId]);
    const { status, message, data } = await health();
    assert.equal(status, 200);
    assert.equal(data.status, "degraded");
    assert.equal(data.indexer.status, "behind");
    assert.equal(data.indexer.blockNumber, mirrored);
    assert.equal(data.indexer.lagBlocks, 30);
    assert.match(message, /indexer 30 blocks behind/);
  } finally {
    await writer.query("select pg_advisory_unlock($1, $2)", [INDEXER_LOCK_NAMESPACE, stack.deployment.chainId]);
    writer.release();
  }
});

test("a chain that does not answer is degraded, not down, and the indexer's lag is unknown", async () => {
  stack.relay.down();
  try {
    const { status, message, data } = await health();
    assert.equal(status, 200);
    assert.equal(data.status, "degraded");
    assert.equal(data.database, "ok");
    assert.equal(data.chain, "unreachable");
    assert.equal(data.indexer.lagBlocks, null);
    assert.match(message, /chain unreachable/);
  } finally {
    stack.relay.up();
  }
  // Each probe has 1.5 s: on a loaded machine the first one after the relay is back can still run out of it,
  // so the test waits for recovery (up to 30 s) instead of betting on the very next probe.
  const deadline = Date.now() + 30_000;
  let chain = (await health()).data.chain;
  while (chain !== "ok" && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    chain = (await health()).data.chain;
  }
  assert.equal(chain, "ok");
});
