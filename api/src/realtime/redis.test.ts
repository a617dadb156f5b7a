import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import type { Socket } from "socket.io-client";
import { createTestDatabase, type TestDatabase } from "#db/testing";
import { loadConfig } from "../config/env";
import { createKeyValueStore } from "../kv/connect";
import type { KeyValueStore } from "../kv/store";
import { startServer, type RunningServer } from "../server";
import { account, insertOutbox, nextOf, openSocket, record, settle, type Account } from "./testing";

const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379";
let database: TestDatabase;
let kv: KeyValueStore;
let dataDir: string;
let one: RunningServer;
let two: RunningServer;
let user: Account;
let call: (method: string, path: string, options?: { body?: unknown; token?: string }) => Promise<{ status: number; body: any }>;
const sockets: Socket[] = [];

/** Two API processes' worth of servers over one database and one Redis, with this run's own channel and key prefix. */
before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "lm-redis-"));
  const prefix = `test:${randomUUID()}`;
  const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: randomUUID() + randomUUID(), REDIS_URL, RPC_URL: "http://127.0.0.1:9", LOG_LEVEL: "silent" });
  database = await createTestDatabase();
  kv = await createKeyValueStore({ redisUrl: REDIS_URL, prefix: `${prefix}:kv:` });
  const start = () => startServer({ port: 0, config, database, kv, logger: pino({ level: "silent" }), staticDir: join(dataDir, "none"), realtime: { redisKey: `${prefix}:io` } });
  [one, two] = await Promise.all([start(), start()]);
  call = async (method, path, options = {}) => {
    const response = await fetch(`http://127.0.0.1:${one.port}/api${path}`, {
      method,
      headers: { "content-type": "application/json", ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
      body: JSON.stringify(options.body),
    });
    return { status: response.status, body: await response.json() };
  };
  user = await account(call, database.db);
});
after(async () => {
  for (const socket of sockets) socket.close();
  await Promise.all([one.close(), two.close()]);
  await kv.close();
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const open = async (server: RunningServer, token = user.token) => {
  const socket = await openSocket(`http://127.0.0.1:${server.port}`, token);
  sockets.push(socket);
  return socket;
};

test("with REDIS_URL a notification sent by one API process reaches the user's client on the other", async () => {
  const events = record(await open(two));
  await one.notifier.notifyUser(
    user.id,
    { type: "kyc_approved", title: "KYC approved", message: "KYC Approved! You can now apply for loans." },
    {
      name: "kyc:status",
      payload: { status: "approved" },
    },
  );
  assert.deepEqual(await events.next("kyc:status"), { status: "approved" });
  assert.equal(events.named("notification:new")[0].message, "KYC Approved! You can now apply for loans.");
});

test("an outbox row is claimed by one process and reaches the clients of both, once each", async () => {
  const [socketOne, socketTwo] = await Promise.all([open(one), open(two)]);
  const [onOne, onTwo] = [record(socketOne), record(socketTwo)];
  await Promise.all([socketOne, socketTwo].map((socket) => socket.timeout(2000).emitWithAck("subscribe:marketplace")));
  await insertOutbox(database.db, [{ event: "marketplace:update", rooms: ["marketplace"], payload: { type: "price_updated", amount: "900", nftId: "5" } }]);
  await Promise.all([onOne.next("marketplace:update"), onTwo.next("marketplace:update")]);
  await settle(500);
  assert.equal(onOne.named("marketplace:update").length, 1);
  assert.equal(onTwo.named("marketplace:update").length, 1);
});

test("a password change through one API process disconnects the user's sockets held by the other", async () => {
  const changer = await account(call, database.db);
  const [onOne, onTwo] = await Promise.all([open(one, changer.token), open(two, changer.token)]);
  const [goneOne, goneTwo] = [nextOf(onOne, "disconnect"), nextOf(onTwo, "disconnect")];
  const changed = await call("PUT", "/auth/change-password", { token: changer.token, body: { currentPassword: changer.password, newPassword: "another456" } });
  assert.equal(changed.status, 200, changed.body.message);
  assert.deepEqual(await Promise.all([goneOne, goneTwo]), ["io server disconnect", "io server disconnect"]);
  await assert.rejects(open(two, changer.token), { message: "Invalid or expired token" });
  const fresh = record(await open(two, changed.body.data.token));
  await one.notifier.notifyUser(
    changer.id,
    { type: "kyc_approved", title: "KYC approved", message: "KYC Approved! You can now apply for loans." },
    {
      name: "kyc:status",
      payload: { status: "approved" },
    },
  );
  assert.deepEqual(await fresh.next("kyc:status"), { status: "approved" });
});
