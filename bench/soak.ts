// Soak: a few hundred virtual users send mixed API traffic (sign-ins, profiles, marketplace
// browsing with filters, loans, notifications, the assistant, health, config) at a steady rate for 2 minutes
// against the whole API on loopback: private Postgres database, Redis when it answers, a private anvil with the
// contracts deployed, 10,000 listed notes in the mirror (as bench:api). The load comes from its own process.
// Run: npm run bench:soak [-- --seconds=120 --users=300 --rate=50]
// Prints requests/s, latency p50/p95/p99 per route (timed from when each request was due), errors (any makes the
// exit code 1), and the server's memory sampled every 5 s with the growth from the first to the last minute
// after warm-up, and the heap after full collections from warm-up to the end (the figure a leak would move).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { sql } from "drizzle-orm";
import { ensureCompiled, deployAll } from "#contracts/deploy";
import { startAnvil } from "#devchain/anvil";
import { runLoad, type LoadRequest } from "./lib/load";
import { seedMirror } from "./lib/mirror";
import { startBenchApi } from "./lib/server";
import { machineLine, mb, memorySample, ms, type MemorySample } from "./lib/stats";
import { insertBenchUsers, type BenchUser } from "./lib/users";

const flag = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const SECONDS = flag("seconds", 120);
const USERS = flag("users", 300);
const RATE = flag("rate", 50);
const NOTES = flag("notes", 10_000);
const WARMUP = Math.min(15, Math.round(SECONDS * 0.2));
const SAMPLE_MS = 5000;

/** Weights out of 100: mostly reads, as a marketplace is used; sign-ins and the assistant are the costly writes. */
const MIX: Array<[weight: number, make: (user: BenchUser, i: number) => LoadRequest]> = [
  [24, (u, i) => ({ route: "GET  /api/nfts/marketplace/browse?…", path: browsePath(i), token: u.token })],
  [12, (u) => ({ route: "GET  /api/users/profile", path: "/api/users/profile", token: u.token })],
  [7, (u) => ({ route: "GET  /api/auth/me", path: "/api/auth/me", token: u.token })],
  [10, (u) => ({ route: "GET  /api/loans/my-loans", path: "/api/loans/my-loans", token: u.token })],
  [10, (u) => ({ route: "GET  /api/notifications", path: "/api/notifications", token: u.token })],
  [7, (_u, i) => ({ route: "GET  /api/nfts/:id", path: `/api/nfts/${1 + ((i * 7919) % NOTES)}` })],
  [6, (u) => ({ route: "GET  /api/nfts/my-portfolio", path: "/api/nfts/my-portfolio", token: u.token })],
  [3, (u) => ({ route: "GET  /api/chatbot/history", path: "/api/chatbot/history", token: u.token })],
  [8, () => ({ route: "GET  /api/config", path: "/api/config" })],
  [5, () => ({ route: "GET  /api/health", path: "/api/health" })],
  [5, (u) => ({ route: "POST /api/auth/login", path: "/api/auth/login", method: "POST", body: { email: u.email, password: u.password } })],
  [3, (u, i) => ({ route: "POST /api/chatbot/message", path: "/api/chatbot/message", method: "POST", token: u.token, body: { message: QUESTIONS[i % QUESTIONS.length] } })],
];
const QUESTIONS = ["What is the status of my loan?", "How does the marketplace fee work?", "Why do I need KYC?", "What interest rates can I choose?", "How do repayments work?"];
const SORTS = ["newest", "amount", "interestRate", "termMonths"];

function browsePath(i: number): string {
  const parts = [`page=${1 + (i % 20)}`, "limit=20", `sort=${SORTS[i % SORTS.length]}`];
  if (i % 3 === 0) parts.push("rateBand=low,medium");
  if (i % 5 === 0) parts.push(`minAmount=${1000 + (i % 40) * 500}`);
  if (i % 7 === 0) parts.push("search=business");
  return `/api/nfts/marketplace/browse?${parts.join("&")}`;
}

/** A fixed shuffle of the mix over all users: every user does every kind of request, in no lockstep. */
export function schedule(users: BenchUser[]): LoadRequest[] {
  const kinds = MIX.flatMap(([weight, make]) => Array.from({ length: weight }, () => make));
  let seed = 42;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = kinds.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [kinds[i], kinds[j]] = [kinds[j], kinds[i]];
  }
  const length = Math.max(users.length, kinds.length) * 10;
  return Array.from({ length }, (_, i) => kinds[i % kinds.length](users[(i * 7) % users.length], i));
}

/** Each user has a few notifications and two loan requests of their own to read back. */
export async function seedUserData(db: Parameters<typeof seedMirror>[0], users: BenchUser[]) {
  const ids = users.map((u) => u.id);
  await db.execute(sql`
    insert into notifications (user_id, type, title, message)
    select u, 'system_alert', 'Welcome', 'Notification ' || n || ' for the soak' from unnest(${sql.param(ids)}::uuid[]) u, generate_series(1, 3) n`);
  await db.execute(sql`
    insert into loans (user_id, amount, principal, purpose, rate_bps, term_months)
    select u, 5000000000, 5000000000, 'business', 850, 12 from unnest(${sql.param(ids)}::uuid[]) u, generate_series(1, 2) n`);
}

function settledHeap(): number {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
  return process.memoryUsage().heapUsed;
}

async function main() {
  console.log(`[bench:soak] ${SECONDS} s at ${RATE} req/s from ${USERS} users (warm-up ${WARMUP} s); ${await machineLine()}`);
  await ensureCompiled();
  const anvil = await startAnvil();
  const dataDir = mkdtempSync(join(tmpdir(), "lm-soak-"));
  // Deployed before the API starts, so it finds the contracts as `npm start` leaves them.
  const api = await deployAll({ rpcUrl: anvil.rpcUrl, dataDir })
    .then(() => startBenchApi({ rpcUrl: anvil.rpcUrl, dataDir }))
    .catch(async (error) => {
      await anvil.stop();
      throw error;
    });
  try {
    const [owner] = await insertBenchUsers(api.database.db, api.config.jwtSecret, 1);
    const users = await insertBenchUsers(api.database.db, api.config.jwtSecret, USERS, { kyc: "approved" });
    await seedMirror(api.database.db, owner.id, NOTES);
    await seedUserData(api.database.db, users);
    console.log(`[bench:soak] API at ${api.base} (${api.database.url ? "Postgres" : "PGlite"}, ${api.redis ? "Redis" : "in-memory key-value, no Redis"}), chain ${anvil.rpcUrl}, ${NOTES} notes`);

    const samples: Array<{ t: number } & MemorySample> = [];
    const loop = monitorEventLoopDelay({ resolution: 10 });
    const began = performance.now();
    // A handful of full collections after warm-up (each a short pause, inside the latency figures): what stays
    // in the heap, as a line over time — garbage between collections says nothing about leaks.
    const settled: number[] = [];
    let settler: NodeJS.Timeout | undefined;
    const sampler = setInterval(() => samples.push({ t: (performance.now() - began) / 1000, ...memorySample() }), SAMPLE_MS);
    const warmed = setTimeout(() => {
      settled.push(settledHeap());
      loop.enable();
      settler = setInterval(() => settled.push(settledHeap()), Math.max(5, (SECONDS - WARMUP) / 5) * 1000);
    }, WARMUP * 1000);
    const report = await runLoad({ origin: api.base, connections: 64, seconds: SECONDS, rate: RATE, requests: schedule(users), warmupSeconds: WARMUP, bucketSeconds: 10 });
    clearInterval(sampler);
    clearTimeout(warmed);
    clearInterval(settler);
    loop.disable();
    settled.push(settledHeap());

    console.log(`\nrequests ${report.requests} in ${report.seconds.toFixed(1)} s = ${report.rps.toFixed(1)} req/s (asked ${RATE}); errors ${report.errors}`);
    console.log(`answers per 10 s: ${report.timeline.join(" ")}`);
    console.log(`\n${"route".padEnd(38)}${"count".padStart(7)}${"errors".padStart(8)}${"p50".padStart(11)}${"p95".padStart(11)}${"p99".padStart(11)}${"max".padStart(11)}`);
    for (const r of report.routes) {
      console.log(
        `${r.route.padEnd(38)}${String(r.count).padStart(7)}${String(r.errors).padStart(8)}${ms(r.latency.p50).padStart(11)}${ms(r.latency.p95).padStart(11)}${ms(r.latency.p99).padStart(11)}${ms(r.latency.max).padStart(11)}`,
      );
    }
    console.log(
      `${"all (after warm-up)".padEnd(38)}${String(report.all.count).padStart(7)}${"".padStart(8)}${ms(report.all.p50).padStart(11)}${ms(report.all.p95).padStart(11)}${ms(report.all.p99).padStart(11)}${ms(report.all.max).padStart(11)}`,
    );
    for (const line of report.firstErrors) console.log(`  error: ${line}`);

    printMemory(samples, settled);
    console.log(`server event loop delay after warm-up: p50 ${(loop.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms, max ${(loop.max / 1e6).toFixed(1)} ms`);
    process.exitCode = report.errors > 0 ? 1 : 0;
  } finally {
    await api.close();
    await anvil.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** First vs last window after warm-up: a minute each on the 2-minute run, halves of what is left on shorter ones. */
function printMemory(samples: Array<{ t: number } & MemorySample>, settled: number[]) {
  const after = samples.filter((s) => s.t >= WARMUP);
  const window = Math.min(60, (SECONDS - WARMUP) / 2);
  const first = after.filter((s) => s.t < WARMUP + window);
  const last = after.filter((s) => s.t > SECONDS - window);
  const mean = (list: MemorySample[], key: keyof MemorySample) => list.reduce((sum, s) => sum + s[key], 0) / Math.max(1, list.length);
  console.log(`\nserver memory every ${SAMPLE_MS / 1000} s (RSS / heap used, MB): ${samples.map((s) => `${(s.rss / 2 ** 20).toFixed(0)}/${(s.heapUsed / 2 ** 20).toFixed(0)}`).join(" ")}`);
  for (const key of ["rss", "heapUsed"] as const) {
    const a = mean(first, key);
    const b = mean(last, key);
    console.log(
      `${key === "rss" ? "RSS " : "heap"} mean, first ${window.toFixed(0)} s after warm-up ${mb(a)} -> last ${window.toFixed(0)} s ${mb(b)}: growth ${mb(b - a)} (${(((b - a) / a) * 100).toFixed(1)}%)`,
    );
  }
  const growth = settled[settled.length - 1] - settled[0];
  console.log(`heap after full collections, warm-up to end: ${settled.map((h) => (h / 2 ** 20).toFixed(1)).join(" -> ")} MB (growth ${mb(growth)})`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
