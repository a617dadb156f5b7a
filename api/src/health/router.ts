import { Router } from "express";
import type { PublicClient } from "viem";
import type { Db } from "#db/connect";
import { databaseAnswers } from "#db/connect";
import type { KeyValueStore } from "../kv/store";
import { readDeployment } from "../config/deployment";
import { ok, fail } from "../http/envelope";
import { indexerHealth, type IndexerHealth } from "./indexer";

/** One slow dependency must not make the health check itself hang. */
const PROBE_TIMEOUT_MS = 1500;
/**
 * The database decides the 503, so it gets longer: on a saturated machine `select 1` can wait behind a busy event loop
 * or a full pool for over a second, and a load balancer should not drop a process that is merely busy. A stopped
 * server refuses at once, so an outage is still reported fast.
 */
const DATABASE_PROBE_TIMEOUT_MS = 5000;
/** The mirror this many blocks behind the chain's head (less confirmations) is reported as behind. */
export const DEFAULT_MAX_LAG_BLOCKS = 20;

function within<T>(promise: Promise<T>, fallback: T, timeoutMs = PROBE_TIMEOUT_MS): Promise<T> {
  return Promise.race([promise.catch(() => fallback), new Promise<T>((resolve) => setTimeout(() => resolve(fallback), timeoutMs).unref())]);
}

export interface HealthDeps {
  db: Db;
  kv: KeyValueStore;
  publicClient: PublicClient;
  config: { chainId: number; confirmations: number; dataDir: string };
  kind: string;
  maxLagBlocks?: number;
}

export interface Health {
  status: "ok" | "degraded" | "down";
  database: "ok" | "unreachable";
  redis: "ok" | "unreachable" | "not configured";
  chain: "ok" | "unreachable" | "wrong chain";
  chainId: number;
  indexer: IndexerHealth;
  databaseKind: string;
  uptimeSeconds: number;
}

/** What is wrong, in words, for the message beside a degraded status. */
function problems(health: Health): string[] {
  const out: string[] = [];
  if (health.database !== "ok") out.push("database unreachable");
  if (health.redis === "unreachable") out.push("Redis unreachable");
  if (health.chain !== "ok") out.push(health.chain === "wrong chain" ? "the RPC serves another chain" : "chain unreachable");
  if (health.indexer.status === "behind") out.push(`indexer ${health.indexer.lagBlocks} blocks behind`);
  if (health.indexer.status === "not running") out.push("indexer not running");
  return out;
}

/**
 * 503 only when the database does not answer (nothing works without it); 200 otherwise, "degraded" when Redis,
 * the chain or the indexer is in trouble, so a load balancer keeps a process that can still serve most requests.
 */
export function createHealthRouter(deps: HealthDeps): Router {
  const router = Router();
  const maxLag = deps.maxLagBlocks ?? DEFAULT_MAX_LAG_BLOCKS;
  router.get("/", async (_req, res) => {
    const [database, redis, chainId, head, deployment] = await Promise.all([
      within(databaseAnswers(deps.db), false, DATABASE_PROBE_TIMEOUT_MS),
      within(deps.kv.health(), "unreachable" as const),
      within(deps.publicClient.getChainId(), null),
      within(deps.publicClient.getBlockNumber({ cacheTime: 0 }).then(Number), null),
      readDeployment(deps.config.dataDir, deps.config.chainId),
    ]);
    const chain = chainId === null ? "unreachable" : chainId === deps.config.chainId ? "ok" : "wrong chain";
    const indexer = await within(
      indexerHealth({
        db: deps.db,
        chainId: deps.config.chainId,
        kind: deps.kind,
        database,
        deployed: deployment !== null,
        head: chain === "ok" ? head : null,
        confirmations: deps.config.confirmations,
        maxLag,
      }),
      { status: "unknown", blockNumber: null, head: null, lagBlocks: null, lastIndexedAt: null } satisfies IndexerHealth,
    );
    const health: Health = {
      status: "ok",
      database: database ? "ok" : "unreachable",
      redis,
      chain,
      chainId: deps.config.chainId,
      indexer,
      databaseKind: deps.kind,
      uptimeSeconds: Math.round(process.uptime()),
    };
    const wrong = problems(health);
    health.status = !database ? "down" : wrong.length > 0 ? "degraded" : "ok";
    if (!database) return fail(res, 503, "Database unreachable", health);
    return ok(res, health, wrong.length > 0 ? `Degraded: ${wrong.join(", ")}` : "OK");
  });
  return router;
}
