// Two API processes behind Redis serving one set of clients: starts `npm run cluster`'s topology
// (one indexer, two API processes, the proxy) on a private database, Redis key prefix and chain, connects clients
// through the proxy so they spread over both processes, and checks that every client hears
//   - a broadcast made by API process 1 (a loan request sent to it: every admin's client hears loan:new),
//   - the same made by API process 2,
//   - an indexer outbox event (an approval mints and lists the note on-chain; the indexer's marketplace:update),
// counted per process; then requests/s through the proxy beside one API process directly.
// Run: npm run bench:cluster [-- --clients=200 --seconds=5]   (DATABASE_URL / REDIS_URL or the machine's)
// Exits 1 if any client missed a broadcast.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createTestDatabase } from "#db/testing";
import { freePort } from "#devchain/anvil";
import { CLIENT_EVENTS, SERVER_EVENTS } from "#domain/events";
import { startCluster, type Cluster } from "#scripts/cluster";
import { requireOpenFiles } from "./lib/fdLimit";
import { runLoad, type LoadReport, type LoadRequest } from "./lib/load";
import { DEFAULT_REDIS_URL } from "./lib/server";
import { redisAnswering } from "#api/kv/probe";
import { machineLine, ms } from "./lib/stats";
import { broadcastKey, createSwarm } from "./lib/swarm";
import { insertBenchUsers } from "./lib/users";

const flag = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const CLIENTS = flag("clients", 200);
const SECONDS = flag("seconds", 5);
const ROUNDS = flag("rounds", 2);

async function main() {
  requireOpenFiles(CLIENTS * 2 + 256, `${CLIENTS} clients through the proxy (two descriptors each in this process)`);
  const redisUrl = await redisAnswering(process.env.REDIS_URL || DEFAULT_REDIS_URL);
  if (!redisUrl) throw new Error(`bench:cluster needs Redis (REDIS_URL, or ${DEFAULT_REDIS_URL})`);
  const database = await createTestDatabase();
  if (!database.url) throw new Error("bench:cluster needs PostgreSQL (DATABASE_URL, or the machine's at 127.0.0.1:5432)");
  const dataDir = mkdtempSync(join(tmpdir(), "lm-bench-cluster-"));
  const backendOf = new Map<number, number>();
  let cluster: Cluster | undefined;
  let swarm: ReturnType<typeof createSwarm> | undefined;
  try {
    console.log(`[bench:cluster] ${CLIENTS} clients; ${await machineLine()}`);
    const started = performance.now();
    cluster = await startCluster({
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        REDIS_URL: redisUrl,
        RPC_URL: `http://127.0.0.1:${await freePort()}`,
        DATA_DIR: dataDir,
        KV_PREFIX: `bench:${randomUUID().slice(0, 8)}:`,
        RATE_LIMIT_SCALE: "1000",
      },
      port: await freePort(),
      apiPorts: [await freePort(), await freePort()],
      seed: false,
      log: (line) => line.trim().endsWith("]") || console.log(line),
      // Each client tags its handshake, so the proxy can say which process it landed on.
      onRoute: (req, backend, kind) => {
        const tag = kind === "upgrade" ? new URL(req.url ?? "/", "http://x").searchParams.get("bench") : null;
        if (tag !== null) backendOf.set(Number(tag), backend);
      },
    });
    const [one, two] = cluster.apis;
    console.log(`[bench:cluster] proxy ${cluster.url} -> ${cluster.apis.map((a) => `${a.name} ${a.url}`).join(", ")}, one indexer (started in ${ms(performance.now() - started, 0)})`);

    const db = database.db;
    const admins = await insertBenchUsers(db, cluster.config.jwtSecret, CLIENTS, { role: "admin" });
    const [borrower] = await insertBenchUsers(db, cluster.config.jwtSecret, 1, { kyc: "approved" });
    const wallet = privateKeyToAccount(generatePrivateKey()).address.toLowerCase();
    await db.execute(sql`update users set wallet_address = ${wallet} where id = ${borrower.id}`);

    swarm = createSwarm({
      url: cluster.url,
      count: CLIENTS,
      tokens: admins.map((a) => a.token),
      subscribe: CLIENT_EVENTS.subscribeMarketplace,
      events: [SERVER_EVENTS.loanNew, SERVER_EVENTS.marketplaceUpdate],
      query: (i) => ({ bench: String(i) }),
    });
    const connect = await swarm.connect();
    const perProcess = (indexes: Iterable<number>) => {
      const counts = cluster!.apis.map(() => 0);
      for (const i of indexes) counts[backendOf.get(i) ?? -1]++;
      return counts;
    };
    const placed = perProcess(backendOf.keys());
    console.log(`clients connected through the proxy: ${connect.connected}/${CLIENTS} in ${ms(connect.wallMs, 0)} (${cluster.apis.map((a, i) => `${a.name} ${placed[i]}`).join(", ")})`);

    let missed = CLIENTS - connect.connected;
    const report = (label: string, round: Awaited<ReturnType<NonNullable<typeof swarm>["collect"]>>) => {
      const got = perProcess(round.receivedBy);
      missed += round.expected - round.received;
      const parts = cluster!.apis.map((a, i) => `${a.name} ${got[i]}/${placed[i]}`).join(", ");
      console.log(`${label.padEnd(58)} ${round.received}/${round.expected} (${parts})  p50 ${ms(round.latency.p50)}  last ${ms(round.latency.max)}`);
    };

    // A broadcast made by each API process: a loan request sent straight to it tells every admin's client.
    const loans: { id: string; number: string }[] = [];
    for (const api of [one, two]) {
      const number = await nextLoanNumber(db);
      const key = broadcastKey(SERVER_EVENTS.loanNew, number);
      swarm.arm(key);
      const answer = await post(api.url!, "/api/loans/request", borrower.token, { amount: "5000", purpose: "business", interestRate: 8.5, termMonths: 12 });
      if (answer.data?.loanNumber !== undefined && String(answer.data.loanNumber) !== number) throw new Error(`loan number ${answer.data.loanNumber}, expected ${number}`);
      loans.push({ id: answer.data._id, number });
      report(`loan:new made by ${api.name} (request sent to it)`, await swarm.collect(key));
    }

    // The indexer's path: approve through the proxy (mint + list on-chain), the indexer mirrors the listing and
    // writes an outbox row, one API process claims it and the Redis adapter carries it to both processes' clients.
    const key = broadcastKey(SERVER_EVENTS.marketplaceUpdate, loans[0].number);
    swarm.arm(key);
    const approvalStarted = performance.now();
    await put(cluster.url, `/api/admin/loans/${loans[0].id}/approve`, admins[0].token, { walletAddress: wallet });
    const approvalMs = performance.now() - approvalStarted;
    report(`marketplace:update from the indexer's outbox`, await swarm.collect(key, 30_000));
    console.log(`  (the clock includes the approval itself, ${ms(approvalMs, 0)}: mint and listing mined, then the indexer's poll)`);

    swarm.close();
    swarm = undefined;
    missed += await throughput(cluster, admins[0].token);
    if (missed > 0) console.error(`[bench:cluster] ${missed} missed connections, deliveries or failed requests`);
    process.exitCode = missed > 0 ? 1 : 0;
  } finally {
    swarm?.close();
    await cluster?.stop();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The loan number the next request will get (loan:new names its loan by it). */
async function nextLoanNumber(db: Awaited<ReturnType<typeof createTestDatabase>>["db"]): Promise<string> {
  const result = (await db.execute(sql`select last_value + (case when is_called then 1 else 0 end) as next from loan_number_seq`)) as unknown as { rows: { next: string }[] };
  return String(result.rows[0].next);
}

async function post(origin: string, path: string, token: string, body: unknown) {
  return send("POST", origin, path, token, body);
}
async function put(origin: string, path: string, token: string, body: unknown) {
  return send("PUT", origin, path, token, body);
}
async function send(method: string, origin: string, path: string, token: string, body: unknown) {
  const answer = await fetch(`${origin}${path}`, { method, headers: { "content-type": "application/json", authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
  const json = await answer.json();
  if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${json.message}`);
  return json;
}

/** Closed-loop requests/s: the proxy (both processes) beside one process directly, rounds alternating. */
async function throughput(cluster: Cluster, token: string): Promise<number> {
  const requests: LoadRequest[] = [
    { route: "GET /api/config", path: "/api/config" },
    { route: "GET /api/auth/me", path: "/api/auth/me", token },
    { route: "GET /api/nfts/marketplace/browse", path: "/api/nfts/marketplace/browse?limit=20", token },
  ];
  const targets = [
    { name: `proxy -> ${cluster.apis.length} processes`, origin: new URL(cluster.url).origin },
    { name: `${cluster.apis[0].name} directly`, origin: cluster.apis[0].url! },
  ];
  const best = new Map<string, LoadReport>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const target of round % 2 ? [...targets].reverse() : targets) {
      const result = await runLoad({ origin: target.origin, connections: 32, seconds: SECONDS, requests, warmupSeconds: 1 });
      const prior = best.get(target.name);
      if (!prior || result.rps > prior.rps) best.set(target.name, result);
    }
  }
  console.log(`\nrequests/s, 32 connections, ${SECONDS} s per run, best of ${ROUNDS} alternating (${await machineLine()}):`);
  for (const target of targets) {
    const r = best.get(target.name)!;
    console.log(`  ${target.name.padEnd(26)} ${r.rps.toFixed(0).padStart(6)} req/s   p50 ${ms(r.all.p50)}   p99 ${ms(r.all.p99)}   errors ${r.errors}`);
  }
  const perProcess = cluster.proxy.stats();
  console.log(`  proxy spread: ${perProcess.map((s, i) => `${cluster.apis[i].name} ${s.requests} requests`).join(", ")}`);
  return [...best.values()].reduce((sum, r) => sum + r.errors, 0);
}

await main();
