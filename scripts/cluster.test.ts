import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import { freePort, rpcAnswers } from "#devchain/anvil";
import { createTestDatabase, type TestDatabase } from "#db/testing";
import { SERVER_EVENTS } from "#domain/events";
import { newRegistration } from "#api/testing/harness";
import { openSocket, record } from "#api/realtime/testing";
import { redisAnswering } from "#api/kv/probe";
import { startCluster, checkClusterEnv, type Cluster } from "./cluster";

const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379";

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("npm run cluster", { timeout: 300_000 }, () => {
  let database: TestDatabase;
  let cluster: Cluster | undefined;
  let rpcUrl: string;
  const dataDir = mkdtempSync(join(tmpdir(), "lm-cluster-"));
  const output: string[] = [];
  const sockets: Socket[] = [];
  let skip: string | undefined;

  before(async () => {
    database = await createTestDatabase();
    // A "machine lacks" skip fails under CI=true (scripts/skips.mjs), where both services run.
    if (!database.url) skip = "machine lacks PostgreSQL (every process of the cluster shares it)";
    else if (!(await redisAnswering(REDIS_URL))) skip = `machine lacks Redis at ${REDIS_URL}`;
    if (skip) return;
    rpcUrl = `http://127.0.0.1:${await freePort()}`;
    cluster = await startCluster({
      env: { ...process.env, DATABASE_URL: database.url!, REDIS_URL, RPC_URL: rpcUrl, DATA_DIR: dataDir, KV_PREFIX: `test:${randomUUID().slice(0, 8)}:`, LOG_LEVEL: "warn" },
      port: await freePort(),
      apiPorts: [await freePort(), await freePort()],
      seed: false,
      log: (line) => output.push(line),
    });
  });
  after(async () => {
    for (const socket of sockets) socket.close();
    await cluster?.stop();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** JSON against /api of the proxy or of one API process. */
  async function call(origin: string, method: string, path: string, options: { body?: unknown; token?: string } = {}) {
    const answer = await fetch(`${origin}/api${path}`, {
      method,
      headers: { "content-type": "application/json", ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    return { status: answer.status, body: await answer.json() };
  }

  async function user(role: "admin" | "borrower") {
    const registration = newRegistration();
    const registered = await call(cluster!.url, "POST", "/auth/register", { body: registration });
    assert.equal(registered.status, 201, registered.body.message);
    const id = registered.body.data.user._id as string;
    if (role === "admin") await database.db.execute(sql`update users set role = 'admin' where id = ${id}`);
    else await database.db.execute(sql`update users set kyc_status = 'approved', wallet_address = ${`0x${randomUUID().replace(/-/g, "").padEnd(40, "0")}`} where id = ${id}`);
    // Signing in again: the token carries the role.
    const login = await call(cluster!.url, "POST", "/auth/login", { body: { email: registration.email, password: registration.password } });
    assert.equal(login.status, 200, login.body.message);
    return login.body.data.token as string;
  }

  it("refuses to start without DATABASE_URL and REDIS_URL, saying what to set", () => {
    assert.throws(() => checkClusterEnv({}), /DATABASE_URL is not set[\s\S]*REDIS_URL is not set[\s\S]*npm run cluster/);
  });

  it("answers /api/health through the proxy with the database and Redis up", (t) => {
    if (skip) return t.skip(skip);
    return call(cluster!.url, "GET", "/health").then((health) => {
      assert.equal(health.status, 200);
      assert.equal(health.body.data.database, "ok");
      assert.equal(health.body.data.redis, "ok");
    });
  });

  it("carries a broadcast made by either API process to the clients of the other", async (t) => {
    if (skip) return t.skip(skip);
    const [one, two] = cluster!.apis;
    const admin = await user("admin");
    const borrower = await user("borrower");
    const onOne = await openSocket(one.url!, admin);
    const onTwo = await openSocket(two.url!, admin);
    sockets.push(onOne, onTwo);
    const [heardOnOne, heardOnTwo] = [record(onOne), record(onTwo)];

    // A loan request tells every admin's client: sent to one process, heard on both.
    const first = await call(one.url!, "POST", "/loans/request", { token: borrower, body: { amount: "5000", purpose: "business", interestRate: 8.5, termMonths: 12 } });
    assert.equal(first.status, 201, first.body.message);
    const second = await call(two.url!, "POST", "/loans/request", { token: borrower, body: { amount: "6000", purpose: "business", interestRate: 8.5, termMonths: 12 } });
    assert.equal(second.status, 201, second.body.message);
    const amounts = (events: { amount: string }[]) => events.map((e) => e.amount).sort();
    assert.deepEqual(amounts(await heardOnOne.count(SERVER_EVENTS.loanNew, 2)), ["5000", "6000"]);
    assert.deepEqual(amounts(await heardOnTwo.count(SERVER_EVENTS.loanNew, 2)), ["5000", "6000"]);
  });

  it("spreads WebSocket clients over both processes through the one URL", async (t) => {
    if (skip) return t.skip(skip);
    const admin = await user("admin");
    const before = cluster!.proxy.stats().map((s) => s.upgrades);
    sockets.push(await openSocket(cluster!.url, admin), await openSocket(cluster!.url, admin));
    const added = cluster!.proxy.stats().map((s, i) => s.upgrades - before[i]);
    assert.deepEqual(added, [1, 1]);
  });

  it("stops every process it started", async (t) => {
    if (skip) return t.skip(skip);
    const pids = [...cluster!.apis.map((api) => api.pid), cluster!.indexer.pid];
    for (const socket of sockets.splice(0)) socket.close();
    await cluster!.stop();
    const proxyUrl = cluster!.url;
    cluster = undefined;
    assert.deepEqual(pids.filter(alive), [], "API and indexer processes are gone");
    assert.equal(await rpcAnswers(rpcUrl), false, "the private chain stopped");
    await assert.rejects(fetch(`${proxyUrl}/api/health`), "the proxy no longer listens");
  });
});
