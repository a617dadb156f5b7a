// Socket.io fan-out: 1,000 authenticated clients in the `marketplace` room of a locally started
// API receive broadcasts sent with the API's own publisher (and one through an outbox row, the indexer's path),
// beside a bare socket.io server with no app, in the same run. Server, clients and this coordinator are three
// processes, so the figures of one are not the event loop of another.
// Run: npm run bench:sockets [-- --clients=1000 --broadcasts=20]   (DATABASE_URL / REDIS_URL or the machine's)
// Prints connect time, delivery latency p50/p95/max (clock started in the clients' process just before the
// server is asked to send, so it includes one IPC hop), and server memory. Exits 1 if a client missed a broadcast.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { Server } from "socket.io";
import { CLIENT_EVENTS, ROOMS, SERVER_EVENTS } from "#domain/events";
import { currentRole, serveRole, spawnRole, type Child } from "./lib/child";
import { requireOpenFiles } from "./lib/fdLimit";
import { machineLine, mb, memorySample, ms, settledMemory, summarize, type MemorySample, type Summary } from "./lib/stats";
import type { BenchApi } from "./lib/server";
import type { ConnectReport, DeliveryReport } from "./lib/swarm";
// The API's modules are imported by the roles that use them: the bare server's memory must be socket.io's alone.

const flag = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const CLIENTS = flag("clients", Number(process.env.BENCH_CLIENTS ?? 1000));
const BROADCASTS = flag("broadcasts", Number(process.env.BENCH_BROADCASTS ?? 20));
const EVENT = SERVER_EVENTS.marketplaceUpdate;
const SELF = fileURLToPath(import.meta.url);

const payload = (seq: number) => ({ type: "price_updated", amount: "1000", nftId: String(seq), seq });

// ---- server roles ----

/** The API as `npm start` runs it, with Redis when it answers; its users are real rows with real tokens. */
async function appServer() {
  const { startBenchApi } = await import("./lib/server");
  const { insertBenchUsers } = await import("./lib/users");
  const { socketPublisher } = await import("#api/realtime/publisher");
  const { insertOutbox } = await import("#api/realtime/testing");
  let api: BenchApi;
  serveRole(
    {
      async start({ clients }: { clients: number }) {
        api = await startBenchApi();
        const users = await insertBenchUsers(api.database.db, api.config.jwtSecret, clients);
        return { url: api.base, tokens: users.map((u) => u.token), redis: api.redis, database: api.database.url ? "postgres" : "pglite" };
      },
      broadcast({ seq }: { seq: number }) {
        socketPublisher(api.server.io).emit(ROOMS.marketplace, EVENT, payload(seq));
      },
      /** The indexer's way in: a row in the same transaction as the chain data, NOTIFY, one process claims and sends. */
      async outbox({ seq }: { seq: number }) {
        await insertOutbox(api.database.db, [{ event: EVENT, rooms: [ROOMS.marketplace], payload: payload(seq) }]);
      },
      memory: () => settledMemory(),
    },
    async () => api?.close(),
  );
}

/** socket.io alone: no authentication, no adapter, everyone joins the room on connect. */
function rawServer() {
  const http = createServer();
  const io = new Server(http, { serveClient: false });
  io.on("connection", (socket) => void socket.join(ROOMS.marketplace));
  serveRole(
    {
      async start() {
        await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
        return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}` };
      },
      broadcast({ seq }: { seq: number }) {
        io.to(ROOMS.marketplace).emit(EVENT, payload(seq));
      },
      memory: () => settledMemory(),
    },
    () => new Promise<void>((resolve) => void io.close(() => resolve())),
  );
}

async function clientsRole() {
  const { createSwarm, broadcastKey } = await import("./lib/swarm");
  let swarm: ReturnType<typeof createSwarm>;
  serveRole(
    {
      connect(options: { url: string; tokens?: string[]; subscribe?: string; count: number }) {
        swarm = createSwarm({ ...options, events: [EVENT] });
        return swarm.connect();
      },
      arm: ({ seq }: { seq: number }) => swarm.arm(broadcastKey(EVENT, seq)),
      async collect({ seq }: { seq: number }) {
        const { latencies, ...report } = await swarm.collect(broadcastKey(EVENT, seq));
        return { ...report, latencies };
      },
      memory: () => memorySample(),
    },
    async () => swarm?.close(),
  );
}

// ---- the coordinator ----

interface PhaseResult {
  name: string;
  notes: string;
  connect: ConnectReport;
  delivery: Summary;
  /** Per broadcast: the moment the last client had it. */
  lastArrival: Summary;
  missed: number;
  outbox?: DeliveryReport;
  memory: { idle: MemorySample; connected: MemorySample; after: MemorySample; clients: MemorySample };
}

interface Side {
  name: "raw" | "app";
  server: Child;
  clients?: Child;
  info: { url: string; tokens?: string[]; redis?: boolean; database?: string };
  idle: MemorySample;
  connect?: ConnectReport;
  connected?: MemorySample;
  latencies: number[];
  last: number[];
  missed: number;
}

async function startSide(name: "raw" | "app"): Promise<Side> {
  const server = spawnRole(SELF, name, { nodeArgs: ["--expose-gc"] });
  const info = await server.request<Side["info"]>("start", { clients: CLIENTS });
  return { name, server, info, idle: await server.request<MemorySample>("memory"), latencies: [], last: [], missed: 0 };
}

async function connectSide(side: Side): Promise<void> {
  side.clients = spawnRole(SELF, "clients");
  side.connect = await side.clients.request<ConnectReport>("connect", {
    url: side.info.url,
    tokens: side.info.tokens,
    subscribe: side.name === "app" ? CLIENT_EVENTS.subscribeMarketplace : undefined,
    count: CLIENTS,
  });
  if (side.connect.failed > 0) console.error(`[bench:sockets] ${side.name}: ${side.connect.failed} clients failed to connect (first: ${side.connect.firstError})`);
  side.connected = await side.server.request<MemorySample>("memory");
}

/** One broadcast to every client of a side: the clock starts in the clients' process, then the server sends. */
async function broadcast(side: Side, seq: number, how: "broadcast" | "outbox" = "broadcast"): Promise<DeliveryReport & { latencies: number[] }> {
  await side.clients!.request("arm", { seq });
  await side.server.request(how, { seq });
  const round = await side.clients!.request<DeliveryReport & { latencies: number[] }>("collect", { seq });
  side.missed += Math.max(0, round.expected - round.received);
  return round;
}

async function run(): Promise<PhaseResult[]> {
  const sides: Side[] = [];
  try {
    // Both servers run the whole time and their broadcasts alternate, so a busy moment of the shared machine
    // falls on both alike; connecting is done one side at a time, so each connect figure is its own.
    for (const name of ["raw", "app"] as const) sides.push(await startSide(name));
    for (const side of sides) await connectSide(side);
    for (let seq = 1; seq <= BROADCASTS; seq++) {
      for (const side of seq % 2 ? sides : [...sides].reverse()) {
        const round = await broadcast(side, seq);
        side.latencies.push(...round.latencies);
        side.last.push(round.latency.max);
      }
    }
    const app = sides.find((s) => s.name === "app")!;
    const outbox = await broadcast(app, BROADCASTS + 1, "outbox");
    const results: PhaseResult[] = [];
    for (const side of sides) {
      results.push({
        name: side.name,
        notes: side.name === "app" ? `API, ${side.info.database}, ${side.info.redis ? "Redis adapter" : "no Redis (in-memory adapter)"}, JWT per client` : "bare socket.io, no auth",
        connect: side.connect!,
        delivery: summarize(side.latencies),
        lastArrival: summarize(side.last),
        missed: side.missed,
        outbox: side === app ? outbox : undefined,
        memory: {
          idle: side.idle,
          connected: side.connected!,
          after: await side.server.request<MemorySample>("memory"),
          clients: await side.clients!.request<MemorySample>("memory"),
        },
      });
    }
    return results;
  } finally {
    for (const side of sides) {
      await side.clients?.stop();
      await side.server.stop();
    }
  }
}

function print(results: PhaseResult[]) {
  const col = (text: string) => text.padStart(22);
  const row = (label: string, pick: (r: PhaseResult) => string) => console.log(`${label.padEnd(40)}${results.map((r) => col(pick(r))).join("")}`);
  row("", (r) => (r.name === "raw" ? "raw socket.io" : "LoanMint API"));
  row("connected / wanted", (r) => `${r.connect.connected} / ${CLIENTS}`);
  row("connect all (wall, 100 in flight)", (r) => ms(r.connect.wallMs, 0));
  row("connect one p50 / p95", (r) => `${ms(r.connect.perClient.p50, 0)} / ${ms(r.connect.perClient.p95, 0)}`);
  row(`delivery p50 (${BROADCASTS} broadcasts)`, (r) => ms(r.delivery.p50));
  row("delivery p95", (r) => ms(r.delivery.p95));
  row("delivery max", (r) => ms(r.delivery.max));
  row("last client reached, p50 of broadcasts", (r) => ms(r.lastArrival.p50));
  row("outbox row -> all clients (max)", (r) => (r.outbox ? `${ms(r.outbox.latency.max)} (${r.outbox.received}/${r.outbox.expected})` : "–"));
  row("missed deliveries", (r) => String(r.missed));
  row("server RSS idle -> connected", (r) => `${mb(r.memory.idle.rss)} -> ${mb(r.memory.connected.rss)}`);
  row("server heap idle -> connected", (r) => `${mb(r.memory.idle.heapUsed)} -> ${mb(r.memory.connected.heapUsed)}`);
  row("server heap per connection", (r) => `${((r.memory.connected.heapUsed - r.memory.idle.heapUsed) / Math.max(1, r.connect.connected) / 1024).toFixed(1)} kB`);
  row("server RSS after broadcasts", (r) => mb(r.memory.after.rss));
  row("clients' process RSS", (r) => mb(r.memory.clients.rss));
  for (const r of results) console.log(`  ${r.name}: ${r.notes}`);
}

async function main() {
  // Each side (server, clients) holds one descriptor per connection, plus the database, Redis and node's own.
  requireOpenFiles(CLIENTS + 256, `${CLIENTS} socket.io clients`);
  console.log(`[bench:sockets] ${CLIENTS} clients, ${BROADCASTS} broadcasts each; ${await machineLine()}`);
  const results = await run();
  print(results);
  const missed = results.reduce((sum, r) => sum + r.missed + (CLIENTS - r.connect.connected), 0);
  if (missed > 0) console.error(`[bench:sockets] ${missed} missed connections or deliveries`);
  process.exitCode = missed > 0 ? 1 : 0;
}

const role = currentRole();
if (role === "app") await appServer();
else if (role === "raw") rawServer();
else if (role === "clients") await clientsRole();
else await main();
