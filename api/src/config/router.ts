import { Router } from "express";
import { publicConfigSchema, type PublicConfig } from "#domain/deployment";
import { ok } from "../http/envelope";
import type { AppConfig } from "./env";
import { readDeployment } from "./deployment";

/** The app's run-time settings: nothing per deployment is baked into the bundle. */
export function createConfigRouter(config: AppConfig): Router {
  const router = Router();
  router.get("/", async (_req, res) => {
    const deployment = await readDeployment(config.dataDir, config.chainId).catch(() => null);
    const body: PublicConfig = publicConfigSchema.parse({
      chainId: config.chainId,
      rpcUrl: "/api/rpc",
      explorerUrl: config.explorerUrl ?? null,
      isLocalChain: config.isLocalChain,
      contracts: deployment?.contracts ?? null,
      treasury: deployment?.treasury ?? null,
      stablecoinDecimals: 6,
      adminSignup: Boolean(config.adminInviteCode),
    });
    res.setHeader("Cache-Control", "no-store");
    ok(res, body);
  });
  return router;
}
