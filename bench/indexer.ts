// Indexer benchmark: backfill speed against a bare viem log fetch of the same logs, a rebuild from the indexer's log
// cache beside both (through a relay that counts what reaches the node), and the
// latency from a mined block to its event arriving at a connected socket.io client at 0 confirmations, through
// the whole path: indexer -> outbox row + NOTIFY -> the API's outbox delivery -> socket.io -> client.
// Run: npm run bench:indexer (DATABASE_URL or the machine's Postgres; a private anvil).
// BENCH_EVENTS, BENCH_ROUNDS, BENCH_SAMPLES; BENCH_POLL_MS is the follower's poll (100 ms: what `npm start` uses
// on the local chain), BENCH_HEADS=0 turns off its new-heads subscription to measure polling alone.
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { pino } from "pino";
import { io } from "socket.io-client";
import { createPublicClient, encodeFunctionData, http, type Address, type Hex, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { deployAll, ensureCompiled } from "#contracts/deploy";
import { createTestDatabase } from "#db/testing";
import { startAnvil } from "#devchain/anvil";
import { loanNoteAbi, noteMarketplaceAbi } from "#domain/abis";
import type { Deployment } from "#domain/deployment";
import { DEV_ACCOUNTS } from "#domain/devAccounts";
import { reindex } from "#indexer/reindex";
import { OUTBOX_CHANNEL, startIndexer } from "#indexer/sync";
import { createTokenService } from "#api/auth/tokens";
import { loadConfig } from "#api/config/env";
import { createKeyValueStore } from "#api/kv/connect";
import { startServer } from "#api/server";
import { startRpcCounter } from "#testing/rpcCounter";

const TARGET_EVENTS = Number(process.env.BENCH_EVENTS ?? 21_000);
const LATENCY_SAMPLES = Number(process.env.BENCH_SAMPLES ?? 60);
const POLL_MS = Number(process.env.BENCH_POLL_MS ?? 100);
const HEADS = process.env.BENCH_HEADS !== "0";
/**
 * Rounds of (raw fetch, backfill); on a shared machine more rounds steady the medians. Even, as each contender goes
 * first in half of them: the second one of a pair finds the node's caches warm (about a quarter faster).
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const TXS_PER_BLOCK = 100;
/** Blocks per eth_getLogs for both contenders: ~100 transactions a block keeps answers under viem's 10 MB cap. */
const SPAN = 40;

const address = (key: Hex) => privateKeyToAccount(key).address;
const originator = address(DEV_ACCOUNTS.originator);
const treasury = address(DEV_ACCOUNTS.treasury);
const borrower = address(DEV_ACCOUNTS.demoBorrower);

async function rpc<T>(url: string, body: unknown): Promise<T> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return (await response.json()) as T;
}

/**
 * Originates and lists notes (three indexed logs per pair of transactions) through anvil's unlocked dev
 * accounts, many transactions per block, then buries them under empty blocks as a real backfill finds them.
 */
async function generate(url: string, deployment: Deployment, events: number): Promise<void> {
  const { loanNote, marketplace } = deployment.contracts as Record<string, Address>;
  // Explicit nonces: anvil answers a JSON-RPC batch concurrently and would hand out one nonce twice.
  const nonces = new Map<Address, number>();
  for (const account of [originator, treasury]) {
    const answer = await rpc<{ result: Hex }>(url, { jsonrpc: "2.0", id: 1, method: "eth_getTransactionCount", params: [account, "latest"] });
    nonces.set(account, Number(answer.result));
  }
  const call = (from: Address, to: Address, data: Hex) => {
    const nonce = nonces.get(from)!;
    nonces.set(from, nonce + 1);
    return { from, to, data, gas: "0x7a120", nonce: `0x${nonce.toString(16)}` };
  };
  await rpc(url, { jsonrpc: "2.0", id: 1, method: "evm_setAutomine", params: [false] });
  const notes = Math.ceil(events / 3);
  const approve = call(treasury, loanNote, encodeFunctionData({ abi: loanNoteAbi, functionName: "setApprovalForAll", args: [marketplace, true] }));
  const originations = [approve];
  const listings = [];
  for (let id = 1; id <= notes; id++) {
    originations.push(call(originator, loanNote, encodeFunctionData({ abi: loanNoteAbi, functionName: "originate", args: [BigInt(id), borrower, 1_000_000_000n, 1200, 12] })));
  }
  for (let id = 1; id <= notes; id++) {
    listings.push(call(treasury, marketplace, encodeFunctionData({ abi: noteMarketplaceAbi, functionName: "list", args: [BigInt(id), 1_000_000_000n] })));
  }
  // Listings only after every origination is mined: a block may order two senders' transactions either way.
  for (const txs of [originations, listings]) {
    for (let i = 0; i < txs.length; i += TXS_PER_BLOCK) {
      const batch = txs.slice(i, i + TXS_PER_BLOCK).map((tx, j) => ({ jsonrpc: "2.0", id: j, method: "eth_sendTransaction", params: [tx] }));
      const answers = await rpc<{ error?: { message: string } }[]>(url, batch);
      const failed = answers.find((answer) => answer.error);
      if (failed) throw new Error(`sending failed: ${failed.error!.message}`);
      await rpc(url, { jsonrpc: "2.0", id: 1, method: "evm_mine", params: [] });
    }
    await minePending(url);
  }
  await rpc(url, { jsonrpc: "2.0", id: 1, method: "anvil_mine", params: ["0x80"] });
  await rpc(url, { jsonrpc: "2.0", id: 1, method: "evm_setAutomine", params: [true] });
}

async function minePending(url: string): Promise<void> {
  for (;;) {
    const status = await rpc<{ result: { pending: Hex } }>(url, { jsonrpc: "2.0", id: 1, method: "txpool_status", params: [] });
    if (BigInt(status.result.pending) === 0n) return;
    await rpc(url, { jsonrpc: "2.0", id: 1, method: "evm_mine", params: [] });
  }
}

async function rawFetch(client: PublicClient, deployment: Deployment, head: bigint): Promise<{ logs: number; ms: number }> {
  const started = performance.now();
  let count = 0;
  for (let from = BigInt(deployment.deployBlock); from <= head; from += BigInt(SPAN)) {
    const to = from + BigInt(SPAN) - 1n < head ? from + BigInt(SPAN) - 1n : head;
    const logs = await client.getLogs({
      address: [deployment.contracts.loanNote, deployment.contracts.marketplace, deployment.contracts.vault] as Address[],
      fromBlock: from,
      toBlock: to,
    });
    count += logs.length;
  }
  return { logs: count, ms: performance.now() - started };
}

/** This process's CPU time so far, in ms. */
const processCpu = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

/** Another process's CPU time so far, in ms (Linux /proc, 100 ticks a second); null where there is none. */
function cpuOf(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/**
 * The CPU time of the database's Postgres backends: with `since` (from an earlier call), what they spent since;
 * without, a snapshot to pass later. NaN when it cannot be read (PGlite, or no /proc).
 */
async function postgresCpu(database: Awaited<ReturnType<typeof createTestDatabase>>): Promise<Map<number, number>>;
async function postgresCpu(database: Awaited<ReturnType<typeof createTestDatabase>>, since: Map<number, number>): Promise<number>;
async function postgresCpu(database: Awaited<ReturnType<typeof createTestDatabase>>, since?: Map<number, number>): Promise<Map<number, number> | number> {
  const now = new Map<number, number>();
  if (database.url) {
    const result = (await database.db.execute(sql`select pid from pg_stat_activity where datname = current_database()`)) as unknown as { rows: { pid: number }[] };
    for (const { pid } of result.rows) {
      const ms = cpuOf(pid);
      if (ms !== null) now.set(pid, ms);
    }
  }
  if (!since) return now;
  if (now.size === 0) return NaN;
  let spent = 0;
  for (const [pid, ms] of now) spent += ms - (since.get(pid) ?? 0);
  return spent;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)];

/**
 * Block to socket.io client at 0 confirmations: the API (its outbox delivery and socket.io) and the live follower
 * with what `npm start` uses on the local chain, an admin's client (admins hear every loan:funded), and one
 * origination at a time, each in its own block. The clock starts when evm_mine answers, the block mined (anvil
 * answers a transaction before its automined block exists, and mining takes it long on this big a state); a
 * second figure starts it when evm_mine is asked, the chain's own mining time included.
 */
async function latency(rpcUrl: string, deployment: Deployment, database: Awaited<ReturnType<typeof createTestDatabase>>, firstToken: number) {
  const dataDir = mkdtempSync(join(tmpdir(), "lm-bench-latency-"));
  const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: randomUUID() + randomUUID(), RPC_URL: rpcUrl, LOG_LEVEL: "silent" });
  const kv = await createKeyValueStore({ prefix: `bench:${randomUUID()}:` });
  const server = await startServer({ port: 0, config, database, kv, logger: pino({ level: "silent" }), staticDir: join(dataDir, "none") });
  const indexer = startIndexer({ db: database.db, rpcUrl, deployment, pollIntervalMs: POLL_MS, confirmations: 0, headsUrl: HEADS ? undefined : null });
  const socket = io(`http://127.0.0.1:${server.port}`, { transports: ["websocket"], reconnection: false, autoConnect: false });
  // The indexer's commit, heard apart: where the time goes (Postgres only; PGlite has no second session).
  const listener = database.url ? new pg.Client({ connectionString: database.url }) : null;
  try {
    await rpc(rpcUrl, { jsonrpc: "2.0", id: 1, method: "evm_setAutomine", params: [false] });
    await indexer.caughtUp();
    const inserted = (await database.db.execute(sql`
      insert into users (email, first_name, last_name, role, password_hash) values (${`bench-${randomUUID()}@example.com`}, 'Bench', 'Admin', 'admin', 'x')
      returning id, role, password_hash`)) as unknown as { rows: { id: string; role: "admin"; password_hash: string }[] };
    const admin = inserted.rows[0];
    socket.auth = { token: await createTokenService(config.jwtSecret).issue({ id: admin.id, role: admin.role, passwordHash: admin.password_hash }) };
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", resolve);
      socket.once("connect_error", reject);
      socket.connect();
    });
    let committed = 0;
    if (listener) {
      await listener.connect();
      await listener.query(`listen ${OUTBOX_CHANNEL}`);
      listener.on("notification", () => (committed = performance.now()));
    }
    const arrivals = new Map<string, () => void>();
    socket.on("loan:funded", (payload: { nftId: string }) => arrivals.get(payload.nftId)?.());

    const fromMined: number[] = [];
    const fromAsked: number[] = [];
    const toCommit: number[] = [];
    const WARMUP = 3;
    for (let i = 0; i < LATENCY_SAMPLES + WARMUP; i++) {
      const id = firstToken + i;
      let arrived = 0;
      const arrival = new Promise<void>((resolve) => arrivals.set(String(id), () => ((arrived = performance.now()), resolve())));
      const data = encodeFunctionData({ abi: loanNoteAbi, functionName: "originate", args: [BigInt(id), borrower, 1_000_000_000n, 1200, 12] });
      committed = 0;
      await rpc(rpcUrl, { jsonrpc: "2.0", id: 1, method: "eth_sendTransaction", params: [{ from: originator, to: deployment.contracts.loanNote, data, gas: "0x7a120" }] });
      const asked = performance.now();
      await rpc(rpcUrl, { jsonrpc: "2.0", id: 1, method: "evm_mine", params: [] });
      const mined = performance.now();
      await Promise.race([arrival, new Promise((_, reject) => setTimeout(() => reject(new Error(`no loan:funded for note ${id} within 10 s`)), 10_000))]);
      if (i >= WARMUP) {
        fromMined.push(arrived - mined);
        fromAsked.push(arrived - asked);
        if (committed) toCommit.push(committed - mined);
      }
      // Blocks come at no fixed phase of the follower's poll, as a user's would.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * POLL_MS));
    }
    const figures = (values: number[]) => `p50 ${percentile(values, 50).toFixed(0)} ms, p95 ${percentile(values, 95).toFixed(0)} ms, max ${Math.max(...values).toFixed(0)} ms`;
    const how = `${database.url ? "Postgres, LISTEN/NOTIFY" : "PGlite"}; follower poll ${POLL_MS} ms${HEADS ? " + new-heads subscription" : ", no subscription"}`;
    console.log(`block -> socket.io client, 0 confirmations: ${figures(fromMined)} (${LATENCY_SAMPLES} blocks; goal p95 <= 300 ms; ${how})`);
    console.log(`  from asking the node to mine:          ${figures(fromAsked)}`);
    if (toCommit.length) console.log(`  of which block -> indexer commit:      ${figures(toCommit)}`);
  } finally {
    socket.close();
    await listener?.end().catch(() => {});
    await indexer.stop();
    await server.close();
    await kv.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  await ensureCompiled();
  const anvil = await startAnvil();
  const dataDir = mkdtempSync(join(tmpdir(), "lm-bench-indexer-"));
  const databases: Awaited<ReturnType<typeof createTestDatabase>>[] = [];
  try {
    const deployment = await deployAll({ rpcUrl: anvil.rpcUrl, dataDir });
    const client = createPublicClient({ transport: http(anvil.rpcUrl), cacheTime: 0 }) as PublicClient;
    const started = performance.now();
    await generate(anvil.rpcUrl, deployment, TARGET_EVENTS);
    const head = await client.getBlockNumber();
    console.log(`generated on the local chain in ${((performance.now() - started) / 1000).toFixed(1)} s, head ${head}`);

    const raws: { logs: number; ms: number }[] = [];
    const indexed: number[] = [];
    const rebuilt: number[] = [];
    const counter = await startRpcCounter(anvil.rpcUrl);
    const cpu = { raw: [] as number[], ours: [] as number[] };
    const anvilPid = anvil.process.pid!;
    for (let round = 0; round < ROUNDS; round++) {
      const database = await createTestDatabase();
      databases.push(database);
      const measureRaw = async () => {
        const before = [processCpu(), cpuOf(anvilPid)];
        raws.push(await rawFetch(client, deployment, head));
        cpu.raw.push(processCpu() - before[0]! + (cpuOf(anvilPid) ?? NaN) - (before[1] ?? NaN));
      };
      const measureOurs = async () => {
        const backends = await postgresCpu(database);
        const before = [processCpu(), cpuOf(anvilPid)];
        const started = performance.now();
        await reindex({ db: database.db, rpcUrl: anvil.rpcUrl, deployment, range: { initial: SPAN, max: SPAN } });
        indexed.push(performance.now() - started);
        cpu.ours.push(processCpu() - before[0]! + (cpuOf(anvilPid) ?? NaN) - (before[1] ?? NaN) + (await postgresCpu(database, backends)));
      };
      // Both back to back, in turns first: a load that rises or falls during a round weighs on each alike.
      if (round % 2 === 0) {
        await measureRaw();
        await measureOurs();
      } else {
        await measureOurs();
        await measureRaw();
      }
      // The same mirror again, from the cache the backfill just filled.
      const started = performance.now();
      await reindex({ db: database.db, rpcUrl: counter.url, deployment });
      rebuilt.push(performance.now() - started);
    }
    await counter.close();
    const logs = raws[0].logs;
    const rawMs = median(raws.map((raw) => raw.ms));
    const indexMs = median(indexed);
    const rawRate = logs / (rawMs / 1000);
    const indexRate = logs / (indexMs / 1000);
    console.log(`events: ${logs}`);
    raws.forEach((raw, i) => console.log(`  round ${i + 1}: raw ${raw.ms.toFixed(0)} ms, backfill ${indexed[i].toFixed(0)} ms (${((raw.ms / indexed[i]) * 100).toFixed(0)}%)`));
    console.log(`raw viem getLogs:   ${rawRate.toFixed(0)} events/s (${rawMs.toFixed(0)} ms, median of ${ROUNDS})`);
    console.log(`indexer backfill:   ${indexRate.toFixed(0)} events/s (${indexMs.toFixed(0)} ms into Postgres, median of ${ROUNDS})`);
    console.log(`ratio:              ${((indexRate / rawRate) * 100).toFixed(0)}% of the raw fetch speed (goal >= 50%)`);
    // Each round measures both back to back, so the pair shares the machine's load of that moment.
    const paired = median(raws.map((raw, i) => raw.ms / indexed[i]));
    console.log(`ratio, paired:      ${(paired * 100).toFixed(0)}% (median of the rounds' own ratios)`);
    const rebuildMs = median(rebuilt);
    console.log(`rebuild from cache: ${(logs / (rebuildMs / 1000)).toFixed(0)} events/s (${rebuildMs.toFixed(0)} ms, median of ${ROUNDS}; ${counter.total()} requests reached the node)`);
    console.log(`  ${(indexMs / rebuildMs).toFixed(1)}x faster than fetch-and-index (goal >= 5x), ${((rawMs / rebuildMs) * 100).toFixed(0)}% of the raw fetch's speed`);
    // What each costs in CPU, whatever the machine's load: on a busy machine the ratio tends to the CPU ratio.
    const rawCpu = median(cpu.raw);
    const oursCpu = median(cpu.ours);
    if (Number.isFinite(rawCpu) && Number.isFinite(oursCpu)) {
      console.log(`CPU (node + anvil [+ Postgres]): raw ${rawCpu.toFixed(0)} ms, backfill ${oursCpu.toFixed(0)} ms (${((rawCpu / oursCpu) * 100).toFixed(0)}%; medians; /proc, 10 ms ticks)`);
    }

    await latency(anvil.rpcUrl, deployment, databases[databases.length - 1], Math.ceil(TARGET_EVENTS / 3) + 1);
  } finally {
    for (const database of databases) await database.drop().catch(() => {});
    await anvil.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
