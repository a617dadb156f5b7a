// Indexer benchmark (issue 5 item 6): backfill speed against a bare viem log fetch of the same logs, and
// the latency from a mined block to its outbox row's NOTIFY at 0 confirmations.
// Run: npm run bench:indexer (DATABASE_URL or the machine's Postgres; a private anvil).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { createPublicClient, encodeFunctionData, http, type Address, type Hex, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { deployAll, ensureCompiled } from "../contracts/deploy";
import { createTestDatabase } from "../db/testing";
import { startAnvil } from "../devchain/anvil";
import { loanNoteAbi, noteMarketplaceAbi } from "../domain/abis";
import type { Deployment } from "../domain/deployment";
import { DEV_ACCOUNTS } from "../domain/devAccounts";
import { reindex } from "../indexer/reindex";
import { OUTBOX_CHANNEL, startIndexer } from "../indexer/sync";

const TARGET_EVENTS = Number(process.env.BENCH_EVENTS ?? 21_000);
const LATENCY_SAMPLES = Number(process.env.BENCH_SAMPLES ?? 60);
/** Rounds of (raw fetch, backfill); on a shared machine more rounds steady the medians. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
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

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)];

async function main() {
  await ensureCompiled();
  const anvil = await startAnvil();
  const dataDir = mkdtempSync(join(tmpdir(), "lm-bench-indexer-"));
  const databases: Awaited<ReturnType<typeof createTestDatabase>>[] = [];
  try {
    const deployment = await deployAll({ rpcUrl: anvil.rpcUrl, dataDir });
    const client = createPublicClient({ transport: http(anvil.rpcUrl), cacheTime: 0 }) as PublicClient;
    let started = performance.now();
    await generate(anvil.rpcUrl, deployment, TARGET_EVENTS);
    const head = await client.getBlockNumber();
    console.log(`generated on the local chain in ${((performance.now() - started) / 1000).toFixed(1)} s, head ${head}`);

    const raws: { logs: number; ms: number }[] = [];
    const indexed: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      raws.push(await rawFetch(client, deployment, head));
      const database = await createTestDatabase();
      databases.push(database);
      started = performance.now();
      await reindex({ db: database.db, rpcUrl: anvil.rpcUrl, deployment, range: { initial: SPAN, max: SPAN } });
      indexed.push(performance.now() - started);
    }
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

    // Latency: block mined (the automined transaction's answer) to the outbox row committed (its NOTIFY).
    const database = databases[databases.length - 1];
    const indexer = startIndexer({ db: database.db, rpcUrl: anvil.rpcUrl, deployment, pollIntervalMs: 20, confirmations: 0 });
    await indexer.caughtUp();
    const listener = new pg.Client({ connectionString: database.url! });
    await listener.connect();
    await listener.query(`listen ${OUTBOX_CHANNEL}`);
    let notified: (() => void) | null = null;
    listener.on("notification", () => notified?.());
    const latencies: number[] = [];
    const notes = Math.ceil(TARGET_EVENTS / 3);
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      const id = BigInt(notes + 1 + i);
      const arrived = new Promise<void>((resolve) => (notified = resolve));
      const data = encodeFunctionData({ abi: loanNoteAbi, functionName: "originate", args: [id, borrower, 1_000_000_000n, 1200, 12] });
      await rpc(anvil.rpcUrl, { jsonrpc: "2.0", id: 1, method: "eth_sendTransaction", params: [{ from: originator, to: deployment.contracts.loanNote, data, gas: "0x7a120" }] });
      const mined = performance.now();
      await arrived;
      latencies.push(performance.now() - mined);
    }
    await listener.end();
    await indexer.stop();
    console.log(
      `block -> outbox row committed (NOTIFY), 0 confirmations, poll 20 ms: p50 ${percentile(latencies, 50).toFixed(0)} ms, p95 ${percentile(latencies, 95).toFixed(0)} ms (${LATENCY_SAMPLES} blocks)`,
    );
    console.log("block -> socket.io client: not measured here yet (needs the API's outbox delivery)");
  } finally {
    for (const database of databases) await database.drop().catch(() => {});
    await anvil.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
