import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { pino } from "pino";
import type { Socket } from "socket.io-client";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createTestDatabase, type TestDatabase } from "#db/testing";
import { loadConfig } from "../config/env";
import type { RateLimits } from "../http/rateLimit";
import { account, openSocket, record, type Account } from "../realtime/testing";
import { startServer, type RunningServer } from "../server";
import { newRegistration } from "../testing/harness";
import { startPrivateRedis, type PrivateRedis } from "#testing/privateRedis";
import { sleep } from "#testing/privateProcess";

/**
 * Redis down under a running API (docs/decisions.md "Redis down"): the API
 * keeps serving from this process's memory, /api/health says degraded, and it goes back to Redis by itself.
 */
let redis: PrivateRedis;
let database: TestDatabase;
let server: RunningServer;
let dataDir: string;
let user: Account;
let socket: Socket | null = null;
const logs: { level: number; msg: string }[] = [];
const prefix = `fault:${randomUUID()}`;
const relaxed = { max: 10_000, windowMs: 60_000 };
const limits: RateLimits = {
  login: { max: 3, windowMs: 60_000 },
  register: relaxed,
  wallet: relaxed,
  rpc: relaxed,
  faucet: relaxed,
  faucetClient: relaxed,
  faucetBudget: relaxed,
  contact: relaxed,
  upload: relaxed,
  loanRequest: relaxed,
  pendingLoanRequests: relaxed.max,
  mirrorWaiters: relaxed.max,
  orderPublish: relaxed,
  openOrders: relaxed.max,
};

before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "lm-fault-redis-"));
  [redis, database] = await Promise.all([startPrivateRedis(), createTestDatabase()]);
  const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: randomUUID() + randomUUID(), REDIS_URL: redis.url, RPC_URL: "http://127.0.0.1:9", KV_PREFIX: `${prefix}:kv:` });
  const logger = pino({ level: "info" }, { write: (line: string) => void logs.push(JSON.parse(line)) });
  server = await startServer({ port: 0, config, database, logger, rateLimits: limits, staticDir: join(dataDir, "none"), realtime: { redisKey: `${prefix}:io` } });
  user = await account(call, database.db);
  socket = await openSocket(`http://127.0.0.1:${server.port}`, user.token);
});
after(async () => {
  socket?.close();
  await server?.close();
  await database?.drop();
  await redis?.destroy();
  rmSync(dataDir, { recursive: true, force: true });
});

async function call(method: string, path: string, options: { body?: unknown; token?: string } = {}) {
  const response = await fetch(`http://127.0.0.1:${server.port}/api${path}`, {
    method,
    headers: { "content-type": "application/json", ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  return { status: response.status, body: await response.json() };
}

/** A full wallet sign-in: nonce issued, message signed, verified once and refused when replayed. */
async function walletSignIn() {
  const wallet = privateKeyToAccount(generatePrivateKey());
  const issued = await call("POST", "/auth/wallet/connect", { body: { walletAddress: wallet.address } });
  assert.equal(issued.status, 200, issued.body.message);
  const { message, nonce } = issued.body.data;
  const body = { walletAddress: wallet.address, signature: await wallet.signMessage({ message }), message, nonce };
  const verified = await call("POST", "/auth/wallet/verify", { body });
  assert.equal(verified.status, 200, verified.body.message);
  const replay = await call("POST", "/auth/wallet/verify", { body });
  assert.equal(replay.status, 401);
  return nonce as string;
}

/** Wrong passwords for one email until the login limit (3 a minute) answers 429. */
async function loginLimitHolds() {
  const body = { email: `nobody.${randomUUID()}@example.com`, password: "wrong-password" };
  for (let i = 0; i < 3; i++) assert.equal((await call("POST", "/auth/login", { body })).status, 401);
  assert.equal((await call("POST", "/auth/login", { body })).status, 429);
}

async function notifyAndReceive(text: string) {
  const events = record(socket!);
  await server.notifier.notifyUser(user.id, { type: "system_alert", title: "Fault test", message: text });
  const pushed = await events.next("notification:new");
  assert.equal(pushed.message, text);
}

/** Resolves after the socket.io adapter's publishing client has tried to reconnect `count` more times. */
function reconnectAttempts(count: number): Promise<void> {
  const pub = (server.io.of("/").adapter as unknown as { pubClient: Redis }).pubClient;
  return new Promise((resolve) => {
    let seen = 0;
    const onAttempt = () => {
      if (++seen < count) return;
      pub.off("reconnecting", onAttempt);
      setImmediate(resolve);
    };
    pub.on("reconnecting", onAttempt);
  });
}

async function waitFor<T>(what: string, probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let attempt = 0; attempt < 150; attempt++) {
    const value = await probe();
    if (done(value)) return value;
    await sleep(200);
  }
  throw new Error(`${what} did not happen within 30 s`);
}

test("with Redis up, /api/health reports it ok", async () => {
  const health = await call("GET", "/health");
  assert.equal(health.status, 200);
  assert.equal(health.body.data.redis, "ok");
});

test("with Redis down the API keeps serving: sign-up, sign-in, wallet nonces, rate limits and live notifications work, and /api/health says degraded", async () => {
  await redis.stop();

  const health = await call("GET", "/health");
  assert.equal(health.status, 200, "a Redis outage is not a reason to take the process out of service");
  assert.equal(health.body.data.status, "degraded");
  assert.equal(health.body.data.redis, "unreachable");
  assert.equal(health.body.data.database, "ok");
  assert.match(health.body.message, /Redis unreachable/);

  const registration = newRegistration();
  assert.equal((await call("POST", "/auth/register", { body: registration })).status, 201);
  const login = await call("POST", "/auth/login", { body: { email: registration.email, password: registration.password } });
  assert.equal(login.status, 200, login.body.message);
  assert.equal((await call("GET", "/auth/me", { token: login.body.data.token })).status, 200);
  await walletSignIn();
  await loginLimitHolds();
  await notifyAndReceive("Delivered while Redis was down");
  // The adapter's client gives up on its queued PUBLISH every third reconnect attempt: this process must survive that.
  await reconnectAttempts(3);
  await notifyAndReceive("Still delivered after the adapter gave up on Redis");

  assert.ok(
    logs.some((line) => line.level === 40 && /Redis is unreachable/.test(line.msg)),
    "the fallback is logged once as a warning",
  );
});

test("when Redis is back the API goes back to it by itself: health ok, counters and nonces in Redis, broadcasts published again", async () => {
  await redis.start();
  await waitFor(
    "health reporting Redis ok",
    () => call("GET", "/health"),
    (answer) => answer.body.data.redis === "ok",
  );

  const direct = new Redis(redis.url, { lazyConnect: true });
  const listener = direct.duplicate();
  try {
    await Promise.all([direct.connect(), listener.connect()]);
    // The first command after the restart may still go to memory while the client reconnects; a fresh count lands in Redis.
    await waitFor(
      "a rate-limit counter in Redis",
      async () => {
        await call("POST", "/auth/login", { body: { email: `probe.${randomUUID()}@example.com`, password: "wrong-password" } });
        return direct.keys(`${prefix}:kv:rl:login:*`);
      },
      (keys) => keys.length > 0,
    );

    const nonce = await walletSignIn();
    assert.equal(await direct.exists(`${prefix}:kv:siwe:${nonce}`), 0, "a verified nonce is spent in Redis");
    const issued = await call("POST", "/auth/wallet/connect", { body: { walletAddress: privateKeyToAccount(generatePrivateKey()).address } });
    assert.equal(await direct.exists(`${prefix}:kv:siwe:${issued.body.data.nonce}`), 1, "a new nonce is kept in Redis, where every process sees it");
    await loginLimitHolds();

    // The socket.io adapter resubscribed and publishes to the other processes again.
    const published: string[] = [];
    listener.on("pmessage", (_pattern, channel) => published.push(channel));
    await listener.psubscribe(`${prefix}:io#*`);
    await waitFor(
      "a broadcast published through Redis",
      async () => {
        await notifyAndReceive(`Delivered after Redis came back ${randomUUID()}`);
        return published.length;
      },
      (count) => count > 0,
    );
  } finally {
    direct.disconnect();
    listener.disconnect();
  }
  assert.ok(
    logs.some((line) => line.level === 30 && /Redis is back/.test(line.msg)),
    "the recovery is logged",
  );
});
