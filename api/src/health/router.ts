import { Router } from "express";
import type { PublicClient } from "viem";
import type { Db } from "../../../db/connect";
import { databaseAnswers } from "../../../db/connect";
import { ok, fail } from "../http/envelope";

async function chainAnswers(client: PublicClient): Promise<number | null> {
  try {
    return await Promise.race([client.getChainId(), new Promise<null>((resolve) => setTimeout(() => resolve(null), 1500).unref())]);
  } catch {
    return null;
  }
}

/** 200 while the database answers (the chain is reported beside it); 503 when the database does not. */
export function createHealthRouter(deps: { db: Db; publicClient: PublicClient; chainId: number; kind: string }): Router {
  const router = Router();
  router.get("/", async (_req, res) => {
    const [database, chainId] = await Promise.all([databaseAnswers(deps.db), chainAnswers(deps.publicClient)]);
    const data = {
      status: database ? (chainId === deps.chainId ? "ok" : "degraded") : "down",
      database: database ? "ok" : "unreachable",
      chain: chainId === null ? "unreachable" : chainId === deps.chainId ? "ok" : "wrong chain",
      chainId: deps.chainId,
      databaseKind: deps.kind,
      uptimeSeconds: Math.round(process.uptime()),
    };
    if (!database) return fail(res, 503, "Database unreachable", data);
    ok(res, data, data.status === "ok" ? "OK" : "Chain unreachable");
  });
  return router;
}
