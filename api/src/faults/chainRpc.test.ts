import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { chainCursors, chainNotes } from "#db/schema/chain";
import { createTestDatabase, type TestDatabase } from "#db/testing";
import { startAnvil, type Anvil } from "#devchain/anvil";
import { reindex, startIndexer, type Indexer } from "#indexer/index";
import { startTestChain, type TestChain } from "#testing/chain";
import { compareWithChain, mirrorSnapshot } from "#indexer/verify";
import { startRelay, type ChainRelay } from "#testing/loanStack";
import { endOnExit, ownFolder, sleep } from "#testing/privateProcess";

/**
 * The chain's RPC down under a running indexer: first the node unreachable while the chain moves on (a relay in
 * front of a private anvil goes dark), then the node itself stopped and started again from its saved state. The
 * indexer backs off with growing, logged pauses and resumes with nothing missed.
 */
const USD = 1_000_000n;
let stateDir: string;
let chain: TestChain;
let restarted: Anvil | null = null;
let relay: ChainRelay;
let database: TestDatabase;
let indexer: Indexer | null = null;
const errors: { at: number; message: string }[] = [];

before(async () => {
  stateDir = ownFolder(mkdtempSync(join(tmpdir(), "lm-fault-chain-")));
  // The node saves its state every second and on SIGTERM, so a stop loses nothing (devchain/anvil.ts).
  [chain, database] = await Promise.all([startTestChain({ stateFile: join(stateDir, "chain.json"), stateInterval: 1 }), createTestDatabase()]);
  endOnExit(chain.anvil.process, "SIGTERM");
  relay = await startRelay(chain.rpcUrl);
  const logger = { info() {}, warn() {}, error: (message: string) => void errors.push({ at: performance.now(), message }) };
  indexer = startIndexer({ db: database.db, rpcUrl: relay.url, deployment: chain.deployment, pollIntervalMs: 100, logger });
});
after(async () => {
  await indexer?.stop();
  await relay?.close();
  await restarted?.stop();
  await chain?.stop();
  await database?.drop();
  rmSync(stateDir, { recursive: true, force: true });
});

/** The pauses the indexer announced after `since` ("retrying in N ms"), waiting until there are `count`. */
async function retries(since: number, count: number): Promise<number[]> {
  const delays = () =>
    errors
      .filter((e) => e.at >= since)
      .map((e) => /retrying in (\d+) ms/.exec(e.message)?.[1])
      .filter(Boolean)
      .map(Number);
  // Far beyond the pauses themselves (500 + 1000 + 2000 + 4000 ms): only an indexer that stopped retrying gets here.
  for (let waited = 0; delays().length < count; waited += 50) {
    if (waited > 60_000) throw new Error(`the indexer announced ${delays().length} retries, not ${count}: ${errors.map((e) => e.message).join(" / ")}`);
    await sleep(50);
  }
  return delays();
}

/** A wait that fails the test instead of hanging it. */
async function bounded<T>(what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not happen within 60 s`)), 60_000)));
  try {
    return await Promise.race([work, limit]);
  } finally {
    clearTimeout(timer);
  }
}

async function mirrorEqualsChain() {
  await bounded("the indexer catching up", indexer!.caughtUp());
  assert.deepEqual(await compareWithChain(database.db, chain.publicClient, chain.deployment), []);
  const [cursor] = await database.db.select().from(chainCursors).where(eq(chainCursors.chainId, chain.deployment.chainId));
  assert.equal(cursor.blockNumber, Number(await chain.publicClient.getBlockNumber()));
}

test("with the RPC unreachable while the chain moves on, the indexer backs off with growing, logged pauses and then catches up on everything", async (t) => {
  await chain.originate(1n);
  await chain.list(1n, 1_000n * USD);
  await mirrorEqualsChain();

  relay.down();
  const down = performance.now();
  // The chain goes on without the indexer: a sale, a new note, a repayment.
  await chain.buy(1n, 1_000n * USD);
  await chain.originate(2n, 500n * USD);
  await chain.repay(2n, 50n * USD);
  const delays = await retries(down, 4);
  relay.up();

  assert.ok(
    delays.slice(0, 4).every((delay, i) => i === 0 || delay > delays[i - 1]),
    `each pause longer than the last: ${delays.join(", ")} ms`,
  );
  assert.ok(
    errors.filter((e) => e.at >= down).every((e) => /^indexer: [\s\S]+; retrying in \d+ ms$/.test(e.message)),
    "every failure says why and when it retries",
  );

  const back = performance.now();
  await mirrorEqualsChain();
  t.diagnostic(`pauses while the RPC was down: ${delays.join(", ")} ms; caught up ${(performance.now() - back).toFixed(0)} ms after it came back`);
  const notes = await database.db.select().from(chainNotes).where(eq(chainNotes.chainId, chain.deployment.chainId));
  assert.equal(notes.length, 2);
  assert.equal(notes.find((n) => n.tokenId === 2n)?.totalRepaid, 50n * USD);
});

test("with the node stopped and started again from its saved state, the indexer resumes with nothing missed", async () => {
  await chain.originate(3n, 300n * USD);
  // Stopped right after the transaction: the indexer may or may not have seen its block.
  await chain.anvil.stop();
  const stopped = performance.now();
  await retries(stopped, 2);

  restarted = await startAnvil({ port: chain.anvil.port, stateFile: join(stateDir, "chain.json"), stateInterval: 1 });
  endOnExit(restarted.process, "SIGTERM");
  const [owner] = (await chain.publicClient.readContract({
    address: chain.deployment.contracts.loanNote as `0x${string}`,
    abi: (await import("#domain/abis")).loanNoteAbi,
    functionName: "ownershipOf",
    args: [3n],
  })) as readonly [string, number, bigint];
  assert.equal(owner.toLowerCase(), chain.actors.treasury.toLowerCase(), "the restarted node kept the note made before the stop");
  await chain.repay(3n, 30n * USD);
  await chain.originate(4n, 400n * USD);

  await mirrorEqualsChain();
  // Nothing missed: the mirror equals one rebuilt from scratch from the same chain.
  await indexer!.stop();
  indexer = null;
  const live = await mirrorSnapshot(database.db, chain.deployment.chainId);
  assert.equal(live.notes.length, 4);
  const fresh = await createTestDatabase();
  try {
    await reindex({ db: fresh.db, rpcUrl: chain.rpcUrl, deployment: chain.deployment });
    assert.deepEqual(await mirrorSnapshot(fresh.db, chain.deployment.chainId), live);
  } finally {
    await fresh.drop();
  }
});
