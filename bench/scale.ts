// Scale benchmark: a chain with N notes (originated, listed, a third repaid; made in blocks of many transactions), then
// for each size: the backfill beside raw getLogs, the rebuild from the log cache beside the backfill, the database's
// size, and the order book's judgement of 10 and of N signed listings beside one constant eth_call, all measured in
// the same run. Every figure is printed with its baseline, and the growth from the first size to the last as a factor.
// Run: npm run bench:scale -- 1000,10000 (sizes in notes; default 1000). DATABASE_URL or the machine's Postgres.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { createPublicClient, encodeFunctionData, hashTypedData, http, type Address, type Hex, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { deployAll, ensureCompiled } from "#contracts/deploy";
import { createTestDatabase, type TestDatabase } from "#db/testing";
import { startAnvil } from "#devchain/anvil";
import { loanNoteAbi, noteMarketplaceAbi } from "#domain/abis";
import type { Deployment } from "#domain/deployment";
import { DEV_ACCOUNTS } from "#domain/devAccounts";
import { ORDER_TYPES, orderDomain, type SignedListing } from "#domain/orders";
import type { OrderRow } from "#db/schema/orders";
import { reindex } from "#indexer/reindex";
import { createBlockBatch } from "#api/orders/blockBatch";
import { createBatchedFillSimulator, createFillSimulator } from "#api/orders/simulateFill";
import { startRpcCounter } from "#testing/rpcCounter";

const SIZES = (process.argv[2] ?? process.env.BENCH_SCALE_NOTES ?? "1000").split(",").map(Number);
const TXS_PER_BLOCK = 200;
const USD = 1_000_000n;

const originator = privateKeyToAccount(DEV_ACCOUNTS.originator).address;
const treasuryAccount = privateKeyToAccount(DEV_ACCOUNTS.treasury);
const treasury = treasuryAccount.address;
const borrower = privateKeyToAccount(DEV_ACCOUNTS.demoBorrower).address;

async function rpc<T>(url: string, body: unknown): Promise<T> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return (await response.json()) as T;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** N notes: each originated and listed on-chain, every third repaid once, many transactions a block. */
async function generate(url: string, deployment: Deployment, notes: number): Promise<void> {
  const { loanNote, marketplace, stablecoin } = deployment.contracts as Record<string, Address>;
  const nonces = new Map<Address, number>();
  for (const account of [originator, treasury, borrower]) {
    const answer = await rpc<{ result: Hex }>(url, { jsonrpc: "2.0", id: 1, method: "eth_getTransactionCount", params: [account, "latest"] });
    nonces.set(account, Number(answer.result));
  }
  const call = (from: Address, to: Address, data: Hex) => {
    const nonce = nonces.get(from)!;
    nonces.set(from, nonce + 1);
    return { from, to, data, gas: "0x7a120", nonce: `0x${nonce.toString(16)}` };
  };
  const erc20 = [{ type: "function", name: "approve", stateMutability: "nonpayable", inputs: [{ type: "address" }, { type: "uint256" }], outputs: [{ type: "bool" }] }] as const;
  await rpc(url, { jsonrpc: "2.0", id: 1, method: "evm_setAutomine", params: [false] });
  const steps = [
    [
      call(treasury, loanNote, encodeFunctionData({ abi: loanNoteAbi, functionName: "setApprovalForAll", args: [marketplace, true] })),
      call(borrower, stablecoin, encodeFunctionData({ abi: erc20, functionName: "approve", args: [loanNote, 2n ** 255n] })),
      ...Array.from({ length: notes }, (_, i) =>
        call(originator, loanNote, encodeFunctionData({ abi: loanNoteAbi, functionName: "originate", args: [BigInt(i + 1), borrower, 1_000n * USD, 1200, 12] })),
      ),
    ],
    Array.from({ length: notes }, (_, i) => call(treasury, marketplace, encodeFunctionData({ abi: noteMarketplaceAbi, functionName: "list", args: [BigInt(i + 1), 1_000n * USD] }))),
    Array.from({ length: Math.floor(notes / 3) }, (_, i) => call(borrower, loanNote, encodeFunctionData({ abi: loanNoteAbi, functionName: "repay", args: [BigInt(3 * i + 3), 10n * USD] }))),
  ];
  // Each step after the previous one is mined: a block may order two senders' transactions either way.
  for (const txs of steps) {
    for (let i = 0; i < txs.length; i += TXS_PER_BLOCK) {
      const batch = txs.slice(i, i + TXS_PER_BLOCK).map((tx, j) => ({ jsonrpc: "2.0", id: j, method: "eth_sendTransaction", params: [tx] }));
      const answers = await rpc<{ error?: { message: string } }[]>(url, batch);
      const failed = answers.find((answer) => answer.error);
      if (failed) throw new Error(`sending failed: ${failed.error!.message}`);
      await rpc(url, { jsonrpc: "2.0", id: 1, method: "evm_mine", params: [] });
    }
  }
  await rpc(url, { jsonrpc: "2.0", id: 1, method: "anvil_mine", params: ["0x40"] });
  await rpc(url, { jsonrpc: "2.0", id: 1, method: "evm_setAutomine", params: [true] });
}

async function rawGetLogs(client: PublicClient, deployment: Deployment, head: bigint): Promise<{ logs: number; ms: number }> {
  const started = performance.now();
  let logs = 0;
  // Blocks hold hundreds of logs here: 20 a call keeps each answer under viem's 10 MB cap.
  const span = 20n;
  for (let from = BigInt(deployment.deployBlock); from <= head; from += span) {
    const to = from + span - 1n < head ? from + span - 1n : head;
    const { loanNote, marketplace, vault, collateralEscrow } = deployment.contracts;
    logs += (await client.getLogs({ address: [loanNote, marketplace, vault, collateralEscrow] as Address[], fromBlock: from, toBlock: to })).length;
  }
  return { logs, ms: performance.now() - started };
}

async function databaseSize(database: TestDatabase): Promise<{ mirror: number; cache: number }> {
  const rows = await database.db.execute<{ cache: boolean; bytes: string }>(sql`
    select relname like 'chain_log_%' as cache, sum(pg_total_relation_size(c.oid))::text as bytes
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind = 'r' and c.relname like 'chain_%' and n.nspname = current_schema()
    group by 1`);
  const list = (rows as unknown as { rows?: { cache: boolean; bytes: string }[] }).rows ?? (rows as unknown as { cache: boolean; bytes: string }[]);
  return { mirror: Number(list.find((r) => !r.cache)?.bytes ?? 0), cache: Number(list.find((r) => r.cache)?.bytes ?? 0) };
}

/** The treasury's signed listing of each note, at par with nothing accrued assumed: a fixed price its fill pays. */
async function signedListings(client: PublicClient, deployment: Deployment, count: number): Promise<OrderRow[]> {
  const block = await client.getBlock();
  const batch = createBlockBatch(client, block.number);
  const { loanNote, marketplace } = deployment.contracts as Record<string, Address>;
  const domain = orderDomain(deployment.chainId, marketplace);
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const tokenId = BigInt(i + 1);
      const state = await batch.readContract({ address: loanNote, abi: loanNoteAbi, functionName: "noteStateOf", args: [tokenId] });
      const message: SignedListing = {
        seller: treasury,
        tokenId,
        price: 900n * USD,
        parBps: 0n,
        changes: BigInt(state.changes),
        maxDaysPastDue: 0n,
        expiry: block.timestamp + 86_400n,
        salt: BigInt(i),
        counter: 0n,
      };
      const signature = await treasuryAccount.signTypedData({ domain, types: ORDER_TYPES, primaryType: "Listing", message });
      const hash = hashTypedData({ domain, types: ORDER_TYPES, primaryType: "Listing", message });
      return {
        hash,
        chainId: deployment.chainId,
        kind: "listing",
        signer: treasury.toLowerCase(),
        tokenId,
        price: message.price,
        parBps: 0,
        changes: message.changes,
        maxDaysPastDue: 0n,
        expiry: message.expiry,
        salt: message.salt,
        counter: 0n,
        signature,
      } as OrderRow;
    }),
  );
}

interface Figures {
  notes: number;
  events: number;
  rawMs: number;
  backfillMs: number;
  rebuildMs: number;
  rebuildRequests: number;
  mirrorBytes: number;
  cacheBytes: number;
  constantMs: number;
  book: { orders: number; coldMs: number; warmMs: number; calls: number; refused: number; aloneMs: number; aloneCalls: number }[];
}

async function measure(notes: number): Promise<Figures> {
  const anvil = await startAnvil();
  const dataDir = mkdtempSync(join(tmpdir(), "lm-bench-scale-"));
  const database = await createTestDatabase();
  const counter = await startRpcCounter(anvil.rpcUrl);
  try {
    const deployment = await deployAll({ rpcUrl: anvil.rpcUrl, dataDir });
    const client = createPublicClient({ transport: http(anvil.rpcUrl), cacheTime: 0 }) as PublicClient;
    const generated = performance.now();
    await generate(anvil.rpcUrl, deployment, notes);
    const head = await client.getBlockNumber();
    console.log(`[bench:scale] ${notes} notes generated in ${((performance.now() - generated) / 1000).toFixed(1)} s, head ${head}`);

    const raw = await rawGetLogs(client, deployment, head);
    const backfillStarted = performance.now();
    await reindex({ db: database.db, rpcUrl: anvil.rpcUrl, deployment });
    const backfillMs = performance.now() - backfillStarted;
    const before = counter.total();
    const rebuildStarted = performance.now();
    await reindex({ db: database.db, rpcUrl: counter.url, deployment });
    const rebuildMs = performance.now() - rebuildStarted;
    const rebuildRequests = counter.total() - before;
    const { mirror, cache } = await databaseSize(database);

    // The constant: one eth_call of a view, the smallest thing a book read can cost.
    const constant: number[] = [];
    for (let i = 0; i < 30; i++) {
      const started = performance.now();
      await client.readContract({ address: deployment.contracts.loanNote as Address, abi: loanNoteAbi, functionName: "noteStateOf", args: [1n] });
      constant.push(performance.now() - started);
    }
    const counted = createPublicClient({ transport: http(counter.url), cacheTime: 0 }) as PublicClient;
    const listings = await signedListings(client, deployment, notes);
    const book: Figures["book"] = [];
    for (const orders of [...new Set([10, notes])]) {
      const block = await client.getBlockNumber();
      const batch = createBlockBatch(counted, block);
      const simulator = createBatchedFillSimulator(counted, deployment, () => batch);
      const judge = () => Promise.all(listings.slice(0, orders).map((row) => simulator.simulate(row, { tokenId: row.tokenId!, owner: treasury, price: row.price, block })));
      const calls = counter.total();
      const coldStarted = performance.now();
      const answers = await judge();
      const coldMs = performance.now() - coldStarted;
      const used = counter.total() - calls;
      const warm: number[] = [];
      for (let i = 0; i < 5; i++) {
        const warmStarted = performance.now();
        await judge();
        warm.push(performance.now() - warmStarted);
      }
      // The baseline: the same judgement one eth_call per order, as before the batch.
      const alone = createFillSimulator(counted, deployment);
      const aloneCalls = counter.total();
      const aloneStarted = performance.now();
      // A hundred at a time: ten thousand calls at once exhaust the sockets before they measure anything.
      const aloneAnswers: (string | null)[] = [];
      for (let i = 0; i < orders; i += 100) {
        const slice = listings.slice(i, Math.min(orders, i + 100));
        aloneAnswers.push(...(await Promise.all(slice.map((row) => alone.simulate(row, { tokenId: row.tokenId!, owner: treasury, price: row.price, block })))));
      }
      const aloneMs = performance.now() - aloneStarted;
      if (aloneAnswers.some((answer, i) => answer !== answers[i])) throw new Error("the batched and the one-by-one judges disagree");
      book.push({ orders, coldMs, warmMs: median(warm), calls: used, refused: answers.filter((a) => a !== null).length, aloneMs, aloneCalls: counter.total() - aloneCalls });
    }
    return { notes, events: raw.logs, rawMs: raw.ms, backfillMs, rebuildMs, rebuildRequests, mirrorBytes: mirror, cacheBytes: cache, constantMs: median(constant), book };
  } finally {
    await counter.close();
    await database.drop();
    await anvil.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

async function main(): Promise<void> {
  await ensureCompiled();
  const all: Figures[] = [];
  for (const size of SIZES) {
    const f = await measure(size);
    all.push(f);
    const rate = (ms: number) => (f.events / (ms / 1000)).toFixed(0);
    console.log(`\n== ${f.notes} notes, ${f.events} events`);
    console.log(`raw getLogs (baseline)      ${rate(f.rawMs).padStart(8)} events/s  ${f.rawMs.toFixed(0)} ms`);
    console.log(`backfill (fetch and index)  ${rate(f.backfillMs).padStart(8)} events/s  ${f.backfillMs.toFixed(0)} ms  ${((f.rawMs / f.backfillMs) * 100).toFixed(0)}% of raw getLogs (goal >= 50%)`);
    console.log(
      `rebuild from the log cache  ${rate(f.rebuildMs).padStart(8)} events/s  ${f.rebuildMs.toFixed(0)} ms  ${(f.backfillMs / f.rebuildMs).toFixed(1)}x the backfill (goal >= 5x); ${f.rebuildRequests} requests reached the node`,
    );
    console.log(`database                    mirror ${mb(f.mirrorBytes)}, log cache ${mb(f.cacheBytes)} (${(f.cacheBytes / f.events).toFixed(0)} bytes an event)`);
    console.log(`constant eth_call (baseline) ${f.constantMs.toFixed(1)} ms (median of 30)`);
    for (const b of f.book) {
      console.log(
        `order book, ${String(b.orders).padStart(6)} open listings: first read in a block ${b.coldMs.toFixed(0)} ms (${(b.coldMs / f.constantMs).toFixed(1)}x the constant, ${b.calls} eth_calls, ${b.refused} refused; one call per order: ${b.aloneMs.toFixed(0)} ms, ${b.aloneCalls} eth_calls); again in the block ${b.warmMs.toFixed(1)} ms (${(b.warmMs / f.constantMs).toFixed(2)}x, median of 5)`,
      );
    }
  }
  if (all.length > 1) {
    const [first, last] = [all[0], all[all.length - 1]];
    const growth = (a: number, b: number) => (b / a).toFixed(1);
    console.log(`\n== growth from ${first.notes} to ${last.notes} notes (x${growth(first.notes, last.notes)} the notes)`);
    console.log(
      `backfill time x${growth(first.backfillMs, last.backfillMs)}, rebuild x${growth(first.rebuildMs, last.rebuildMs)}, database x${growth(first.mirrorBytes + first.cacheBytes, last.mirrorBytes + last.cacheBytes)}`,
    );
    console.log(
      `order book warm read x${growth(first.book[0].warmMs, last.book[0].warmMs)} (10 orders), first read of every order x${growth(first.book[first.book.length - 1].coldMs, last.book[last.book.length - 1].coldMs)}`,
    );
  }
  console.log("\nnot measured here yet: browse p50/p99 under varied filters (npm run bench:api), a note page's time (npm run bench:pages)");
}

await main();
