import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { pino } from "pino";
import { loadConfig } from "../config/env";
import { isDatabaseUnavailable, MESSAGES } from "../http/errors";
import { startServer, type RunningServer } from "../server";
import { newRegistration } from "../testing/harness";
import { startPrivatePostgres, type PrivatePostgres } from "#testing/privatePostgres";
import { atMost, sleep } from "#testing/privateProcess";

/**
 * PostgreSQL stopped and started under load (a private server: the machine's is never touched). While it is
 * down every request is answered at once with 503 and a clear message (never a 500, never a hang); once it is
 * back the same process serves again, with no restart.
 */
let pg: PrivatePostgres;
let server: RunningServer;
let dataDir: string;
let token: string;

before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "lm-fault-pg-"));
  pg = await startPrivatePostgres();
  const { default: Pg } = await import("pg");
  const admin = new Pg.Client({ connectionString: pg.url });
  await admin.connect();
  await admin.query("create database loanmint");
  await admin.end();
  const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: randomUUID() + randomUUID(), DATABASE_URL: pg.urlOf("loanmint"), RPC_URL: "http://127.0.0.1:9" });
  server = await startServer({ port: 0, config, logger: pino({ level: "silent" }), staticDir: join(dataDir, "none") });
  const registered = await call("POST", "/auth/register", newRegistration());
  assert.equal(registered.status, 201, registered.message);
  token = registered.data.token;
});
after(async () => {
  await atMost(15_000, server?.close());
  await pg?.destroy();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Outcome {
  route: string;
  status: number;
  message: string;
  retryAfter: string | null;
  started: number;
  ended: number;
}

async function call(method: string, path: string, body?: unknown, auth?: string) {
  const response = await fetch(`http://127.0.0.1:${server.port}/api${path}`, {
    method,
    headers: { "content-type": "application/json", ...(auth ? { authorization: `Bearer ${auth}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
    // Far beyond any answer: only a hung request reaches it, and it then fails the test as status 0.
    signal: AbortSignal.timeout(30_000),
  });
  const json = await response.json();
  return { status: response.status, message: json.message as string, data: json.data, retryAfter: response.headers.get("retry-after") };
}

/** Signed-in reads and a write, from `workers` clients in a loop, until stopped. */
function startLoad(workers: number) {
  const outcomes: Outcome[] = [];
  const routes = [
    ["GET", "/auth/me"],
    ["GET", "/notifications"],
    ["PUT", "/notifications/read-all"],
  ] as const;
  let running = true;
  const loops = Array.from({ length: workers }, async (_, worker) => {
    for (let i = worker; running; i++) {
      const [method, path] = routes[i % routes.length];
      const started = performance.now();
      let answer: { status: number; message: string; retryAfter: string | null };
      try {
        answer = await call(method, path, method === "PUT" ? {} : undefined, token);
      } catch (error) {
        answer = { status: 0, message: String(error), retryAfter: null };
      }
      outcomes.push({ route: `${method} ${path}`, ...answer, started, ended: performance.now() });
    }
  });
  return {
    outcomes,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
    /** Waits until `count` requests have both started and ended after `since`. */
    async until(count: number, since: number) {
      while (outcomes.filter((o) => o.started >= since).length < count) await sleep(20);
    },
  };
}

test("PostgreSQL stopped under load: requests fail fast with 503 and a clear message, and the process recovers by itself when it is back", async (t) => {
  const load = startLoad(6);
  try {
    await load.until(30, 0);
    assert.ok(
      load.outcomes.every((o) => o.status === 200),
      "all served before the outage",
    );

    await pg.stop();
    const down = performance.now();
    await load.until(60, down);
    const health = await call("GET", "/health");
    assert.equal(health.status, 503);
    assert.equal(health.data.status, "down");
    assert.equal(health.data.database, "unreachable");
    assert.equal(health.data.redis, "not configured");
    // What the driver throws while the server is down, for a query and for a transaction (which drizzle does not wrap).
    for (const attempt of [() => server.db.execute(sql`select 1`), () => server.db.transaction(async (tx) => tx.execute(sql`select 1`))]) {
      await assert.rejects(attempt(), (error) => isDatabaseUnavailable(error));
    }

    const restart = performance.now();
    await pg.start();
    const up = performance.now();
    // Recovery: wait for a success that began after the server was back, then 60 more requests. Recovery is when
    // that success ended, not when it began: a request sent a moment after it may have reached a Postgres that
    // was still starting while the first one waited in the pool's queue, so client-side start order proves nothing.
    while (!load.outcomes.some((o) => o.started >= up && o.status === 200)) await sleep(20);
    const recovered = Math.min(...load.outcomes.filter((o) => o.started >= up && o.status === 200).map((o) => o.ended));
    await load.until(60, recovered);
    await load.stop();

    const whileDown = load.outcomes.filter((o) => o.started >= down && o.ended <= restart);
    const afterRecovery = load.outcomes.filter((o) => o.started >= recovered);
    const unexpected = load.outcomes.filter((o) => o.status !== 200 && o.status !== 503);
    assert.deepEqual(unexpected, [], "every answer is a 200 or a 503, never a 500 or a hang");
    assert.ok(whileDown.length >= 60, `${whileDown.length} requests answered while the database was down`);
    for (const o of whileDown) {
      assert.equal(o.status, 503, `${o.route} while down`);
      assert.equal(o.message, MESSAGES.databaseDown);
      assert.equal(o.retryAfter, "5");
    }
    assert.deepEqual(
      afterRecovery.filter((o) => o.status !== 200),
      [],
      "every request after the first success is served",
    );
    const healthAfter = await call("GET", "/health");
    assert.equal(healthAfter.status, 200);
    assert.equal(healthAfter.data.database, "ok");

    // Closing ends the pool, which waits for every client checked out: one lost in the outage would hang it.
    const closing = server.close().then(() => "closed");
    assert.equal(await Promise.race([closing, sleep(30_000).then(() => "still waiting for a leaked connection")]), "closed");

    const ms = whileDown.map((o) => o.ended - o.started).sort((a, b) => a - b);
    t.diagnostic(
      `while down: ${whileDown.length} answers, median ${ms[ms.length >> 1].toFixed(1)} ms, max ${ms[ms.length - 1].toFixed(1)} ms; ` +
        `restart took ${(up - restart).toFixed(0)} ms, first success ${(recovered - up).toFixed(0)} ms after it; ${load.outcomes.length} requests in all`,
    );
  } finally {
    await load.stop();
    if (!pg.running()) await pg.start().catch(() => {});
  }
});
