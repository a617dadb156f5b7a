import { Router } from "express";
import { getAddress, type PublicClient } from "viem";
import { z } from "zod";
import { ethAddress } from "../../../domain/schemas/common";
import { SHARED_MESSAGES } from "../../../domain/schemas/sharedMessages";
import type { AppConfig } from "../config/env";
import { ok } from "../http/envelope";
import { validate } from "../http/validate";
import { rateLimit, type RateLimitRule } from "../http/rateLimit";
import type { KeyValueStore } from "../kv/store";
import { createFaucet } from "./service";

const faucetRequestSchema = z
  .object({ address: ethAddress.optional(), walletAddress: ethAddress.optional() })
  .refine((body) => body.address ?? body.walletAddress, { message: SHARED_MESSAGES.walletAddress, path: ["address"] });

/** Mounted only on the local chain; elsewhere /api/dev/* does not exist (404). */
export function createDevRouter(deps: { config: AppConfig; publicClient: PublicClient; kv: KeyValueStore; limit: RateLimitRule }): Router {
  const faucet = createFaucet(deps);
  const router = Router();
  const perAddress = rateLimit(deps.kv, {
    name: "faucet",
    ...deps.limit,
    key: (req) => String(req.body?.address ?? req.body?.walletAddress ?? "").toLowerCase(),
  });
  router.post("/faucet", validate(faucetRequestSchema), perAddress, async (req, res) => {
    const to = getAddress((req.body.address ?? req.body.walletAddress) as string);
    const result = await faucet.drip(to);
    const what = result.usd ? `${result.eth} ETH and ${result.usd} test dollars` : `${result.eth} ETH (no stablecoin deployed yet)`;
    ok(res, result, `Sent ${what} to ${to}`);
  });
  return router;
}
