import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chainCursors, chainNotes } from "#db/schema/chain";
import { createTestDatabase, type TestDatabase } from "#db/testing";
import { startTestChain, type TestChain } from "#testing/chain";

let chain: TestChain;
let database: TestDatabase;
let dataDir: string;

before(async () => {
  [chain, database] = await Promise.all([startTestChain(), createTestDatabase()]);
  dataDir = mkdtempSync(join(tmpdir(), "lm-indexer-cli-"));
  mkdirSync(join(dataDir, "deployments"));
  writeFileSync(join(dataDir, "deployments", "31337.json"), JSON.stringify(chain.deployment));
});

after(async () => {
  await database?.drop();
  await chain?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const env = () => ({ ...process.env, DATABASE_URL: database.url!, DATA_DIR: dataDir, RPC_URL: chain.rpcUrl, CHAIN_ID: "31337", INDEXER_POLL_MS: "50" });

test("npm run reindex rebuilds the mirror from the deployment record in DATA_DIR and exits", async () => {
  await chain.originate(1n);
  await chain.originate(2n);
  // No clock of its own: a busy machine took 23 s to start the child; the runner's per-file limit bounds it.
  const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/reindex.ts"], { env: env(), encoding: "utf8" });
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /rebuilt up to block \d+/);
  const notes = await database.db.select().from(chainNotes);
  assert.equal(notes.length, 2);
});

test("npm run indexer follows the chain until it is told to stop", async () => {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/indexer.ts"], { env: env(), stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  try {
    await chain.originate(3n);
    const head = Number(await chain.publicClient.getBlockNumber());
    // Waits for the indexer itself, not for a number of seconds: it either catches up or exits.
    for (;;) {
      const [cursor] = await database.db.select().from(chainCursors);
      if (cursor && cursor.blockNumber >= head) break;
      if (child.exitCode !== null) throw new Error(`the indexer exited (${child.exitCode}) before catching up`);
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal((await database.db.select().from(chainNotes)).length, 3);
  } finally {
    child.kill("SIGTERM");
  }
  assert.equal(await exited, 0);
});
