import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { createTestDatabase, type TestDatabase } from "#db/testing";
import { loadConfig, type AppConfig } from "../config/env";
import { createKeyValueStore } from "../kv/connect";
import type { KeyValueStore } from "../kv/store";
import { redisAnswering } from "../kv/probe";
import type { RateLimits } from "../http/rateLimit";
import { startServer, type RunningServer } from "../server";

export interface TestApi {
  url: string;
  config: AppConfig;
  database: TestDatabase;
  kv: KeyValueStore;
  server: RunningServer;
  /** JSON request against /api; answers the status, the parsed body and the headers. */
  call(method: string, path: string, options?: { body?: unknown; token?: string; headers?: Record<string, string> }): Promise<Answer>;
  close(): Promise<void>;
}

export interface Answer {
  status: number;
  body: { success: boolean; message: string; data: any } & Record<string, any>;
  headers: Headers;
}

export interface TestApiOptions {
  env?: Record<string, string>;
  rpcUrl?: string;
  now?: () => Date;
  rateLimits?: Partial<RateLimits>;
}

const relaxed = { max: 10_000, windowMs: 60_000 };
const RELAXED_LIMITS: RateLimits = {
  login: relaxed,
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

/** A private API on a free port, over its own fresh database, key prefix and data folder. */
export async function startTestApi(options: TestApiOptions = {}): Promise<TestApi> {
  const dataDir = mkdtempSync(join(tmpdir(), "lm-api-"));
  const config = loadConfig({
    DATA_DIR: dataDir,
    JWT_SECRET: randomUUID() + randomUUID(),
    RPC_URL: options.rpcUrl ?? "http://127.0.0.1:9",
    APP_ORIGIN: "http://localhost:5001",
    LOG_LEVEL: "silent",
    ...options.env,
  });
  const database = await createTestDatabase();
  const kv = await createKeyValueStore({
    // The machine's Redis when it answers, so the rate limits and nonces are tested where CI keeps them.
    redisUrl: process.env.REDIS_URL || (await redisAnswering("redis://127.0.0.1:6379")),
    prefix: `test:${randomUUID()}:`,
  });
  const server = await startServer({
    port: 0,
    config,
    database,
    kv,
    logger: pino({ level: "silent" }),
    now: options.now,
    // Suites register many accounts from one address; the limits themselves are tested with tight settings.
    rateLimits: { ...RELAXED_LIMITS, ...options.rateLimits },
    staticDir: join(dataDir, "no-app"),
  });
  const url = `http://127.0.0.1:${server.port}`;
  return {
    url,
    config,
    database,
    kv,
    server,
    async call(method, path, { body, token, headers = {} } = {}) {
      const response = await fetch(`${url}/api${path}`, {
        method,
        headers: {
          ...(body !== undefined ? { "content-type": "application/json" } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...headers,
        },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
    },
    async close() {
      await server.close();
      await kv.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let counter = 0;
/** A registration payload with a unique email. */
export function newRegistration(overrides: Record<string, unknown> = {}) {
  counter += 1;
  return {
    firstName: "Grace",
    lastName: "Hopper",
    email: `grace.${Date.now()}.${counter}.${randomUUID().slice(0, 8)}@example.com`,
    password: "secret123",
    phone: "+1 555 010 0000",
    address: { street: "1 Main St", city: "Austin", state: "TX", zipCode: "78701" },
    ...overrides,
  };
}
