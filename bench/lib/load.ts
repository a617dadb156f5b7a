// HTTP load from a process of its own (so it never shares the server's event loop), per route figures.
// Closed loop (each connection sends its next request when the last is answered: the most a server can take) or
// open loop at a steady rate (a crowd that does not wait: latency is timed from when each request was due, so a
// stalled server shows as latency, not as fewer requests).
import { fileURLToPath, pathToFileURL } from "node:url";
import { currentRole, serveRole, spawnRole } from "./child";
import { summarize, type Summary } from "./stats";

export interface LoadRequest {
  /** Figures are grouped by this name, e.g. "GET /api/nfts/marketplace/browse". */
  route: string;
  path: string;
  method?: "GET" | "POST" | "PUT";
  token?: string;
  body?: unknown;
  /** The status that counts as success (200 unless said). */
  expect?: number;
}

export interface LoadSpec {
  origin: string;
  /** Connections the generator keeps open to the origin. */
  connections: number;
  seconds: number;
  /** Requests per second, open loop; omitted = closed loop. */
  rate?: number;
  /** Sent in this order, cycled. */
  requests: LoadRequest[];
  /** Answers within the first seconds count for errors but not for latency (JIT, caches, pools warming). */
  warmupSeconds?: number;
  /** Width of the throughput timeline's buckets. */
  bucketSeconds?: number;
}

export interface RouteReport {
  route: string;
  count: number;
  errors: number;
  latency: Summary;
}

export interface LoadReport {
  requests: number;
  errors: number;
  /** A few errors as "route: status message" to say what went wrong. */
  firstErrors: string[];
  rps: number;
  seconds: number;
  bytes: number;
  all: Summary;
  routes: RouteReport[];
  /** Answers per bucketSeconds, start to end: a steady rate is a flat line. */
  timeline: number[];
}

/** Runs the load in a child process and resolves with its report. */
export async function runLoad(spec: LoadSpec): Promise<LoadReport> {
  const child = spawnRole(fileURLToPath(import.meta.url), "load");
  try {
    return await child.request<LoadReport>("run", spec);
  } finally {
    await child.stop();
  }
}

async function generate(spec: LoadSpec): Promise<LoadReport> {
  const { Pool } = await import("undici");
  const pool = new Pool(spec.origin, { connections: spec.connections, pipelining: 1 });
  const latencies = new Map<string, number[]>();
  const errors = new Map<string, number>();
  const firstErrors: string[] = [];
  const bucketMs = (spec.bucketSeconds ?? 10) * 1000;
  const timeline: number[] = [];
  let bytes = 0;
  let answered = 0;
  const began = performance.now();
  const warmupEnds = began + (spec.warmupSeconds ?? 0) * 1000;
  const until = began + spec.seconds * 1000;

  async function send(request: LoadRequest, due: number): Promise<void> {
    const headers: Record<string, string> = {};
    if (request.token) headers.authorization = `Bearer ${request.token}`;
    if (request.body !== undefined) headers["content-type"] = "application/json";
    let problem: string | null = null;
    try {
      const res = await pool.request({ path: request.path, method: request.method ?? "GET", headers, body: request.body === undefined ? undefined : JSON.stringify(request.body) });
      const body = await res.body.text();
      bytes += body.length;
      if (res.statusCode !== (request.expect ?? 200)) problem = `${res.statusCode} ${body.slice(0, 160)}`;
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
    }
    const now = performance.now();
    answered++;
    const bucket = Math.floor((now - began) / bucketMs);
    timeline[bucket] = (timeline[bucket] ?? 0) + 1;
    if (problem) {
      errors.set(request.route, (errors.get(request.route) ?? 0) + 1);
      if (firstErrors.length < 5) firstErrors.push(`${request.route}: ${problem}`);
    } else if (now >= warmupEnds) {
      let list = latencies.get(request.route);
      if (!list) latencies.set(request.route, (list = []));
      list.push(now - due);
    }
  }

  let index = 0;
  const nextRequest = () => spec.requests[index++ % spec.requests.length];
  if (spec.rate) {
    // Open loop: every tick sends what is due by now; a slow answer never delays the next request.
    const inFlight = new Set<Promise<void>>();
    let sent = 0;
    while (performance.now() < until) {
      const due = Math.floor(((performance.now() - began) / 1000) * spec.rate);
      for (; sent < due; sent++) {
        const promise = send(nextRequest(), began + (sent / spec.rate) * 1000);
        inFlight.add(promise);
        void promise.finally(() => inFlight.delete(promise));
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await Promise.all(inFlight);
  } else {
    const worker = async () => {
      while (performance.now() < until) await send(nextRequest(), performance.now());
    };
    await Promise.all(Array.from({ length: spec.connections }, worker));
  }
  const seconds = (performance.now() - began) / 1000;
  await pool.close();

  const routes = [...new Set(spec.requests.map((r) => r.route))].map((route) => ({
    route,
    count: (latencies.get(route)?.length ?? 0) + (errors.get(route) ?? 0),
    errors: errors.get(route) ?? 0,
    latency: summarize(latencies.get(route) ?? []),
  }));
  const errorCount = [...errors.values()].reduce((a, b) => a + b, 0);
  return {
    requests: answered,
    errors: errorCount,
    firstErrors,
    rps: answered / seconds,
    seconds,
    bytes,
    all: summarize([...latencies.values()].flat()),
    routes,
    timeline: Array.from(timeline, (n) => n ?? 0),
  };
}

if (currentRole() === "load" && process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  serveRole({ run: (spec: LoadSpec) => generate(spec) });
}
