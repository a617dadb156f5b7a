import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { connectDatabase } from "#db/connect";
import { createTestDatabase, type TestDatabase } from "#db/testing";
import { loadConfig, type AppConfig } from "#api/config/env";
import { createKeyValueStore } from "#api/kv/connect";
import type { KeyValueStore } from "#api/kv/store";
import { redisAnswering } from "#api/kv/probe";
import { startServer, type RunningServer } from "#api/server";
import type { RateLimits } from "#api/http/rateLimit";

export const DEFAULT_REDIS_URL = "redis://127.0.0.1:6379";

export interface BenchApi {
  server: RunningServer;
  database: TestDatabase;
  config: AppConfig;
  kv: KeyValueStore;
  /** http://127.0.0.1:<port> */
  base: string;
  /** "redis" when the socket.io adapter and the rate limits run on Redis, as with several API processes. */
  redis: boolean;
  close(): Promise<void>;
}

const relaxed = { max: 1_000_000, windowMs: 60_000 };
/** Virtual users all come from 127.0.0.1: per-IP limits would turn the bench into a rate-limit test. */
export const BENCH_RATE_LIMITS: RateLimits = {
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

/**
 * The whole API (routes, socket.io, outbox delivery, loan jobs) on a free loopback port, over a private database
 * (createTestDatabase), its own Redis key prefix and channel when Redis answers, and a private data folder.
 */
export async function startBenchApi(options: { rpcUrl?: string; redisUrl?: string | null; dataDir?: string } = {}): Promise<BenchApi> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "lm-bench-"));
  const redisUrl = options.redisUrl === null ? undefined : await redisAnswering(options.redisUrl ?? process.env.REDIS_URL ?? DEFAULT_REDIS_URL);
  const prefix = `bench:${randomUUID()}`;
  const config = loadConfig({
    DATA_DIR: dataDir,
    JWT_SECRET: randomUUID() + randomUUID(),
    RPC_URL: options.rpcUrl ?? "http://127.0.0.1:9",
    APP_ORIGIN: "http://localhost:5001",
    LOG_LEVEL: "silent",
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
  });
  const created = await createTestDatabase();
  // The test helper's pool is small (4) for suites running side by side; the API gets the size it runs with.
  const database: TestDatabase = created.url ? { ...(await connectDatabase({ databaseUrl: created.url, migrate: false })), url: created.url, drop: created.drop } : created;
  const kv = await createKeyValueStore({ redisUrl, prefix: `${prefix}:kv:` });
  const server = await startServer({
    port: 0,
    config,
    database,
    kv,
    logger: pino({ level: "silent" }),
    staticDir: join(dataDir, "no-app"),
    rateLimits: BENCH_RATE_LIMITS,
    realtime: { redisKey: `${prefix}:io` },
  });
  return {
    server,
    database,
    config,
    kv,
    base: `http://127.0.0.1:${server.port}`,
    redis: Boolean(redisUrl),
    async close() {
      await server.close();
      await kv.close();
      if (database !== created) await database.close();
      await created.drop();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
