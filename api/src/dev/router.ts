import { Router } from "express";
import { getAddress } from "viem";
import { z } from "zod";
import { ethAddress } from "#domain/schemas/common";
import { SHARED_MESSAGES } from "#domain/schemas/sharedMessages";
import { ok } from "../http/envelope";
import { validate } from "../http/validate";
import { rateLimit, type RateLimits } from "../http/rateLimit";
import type { KeyValueStore } from "../kv/store";
import type { Faucet } from "./service";
import { FAUCET_ANSWERS } from "./texts";

const faucetRequestSchema = z
  .object({ address: ethAddress.optional(), walletAddress: ethAddress.optional() })
  .refine((body) => body.address ?? body.walletAddress, { message: SHARED_MESSAGES.walletAddress, path: ["address"] });

type FaucetLimits = Pick<RateLimits, "faucet" | "faucetClient" | "faucetBudget">;

/** Mounted only on the local chain; elsewhere /api/dev/* does not exist (404). */
export function createDevRouter(deps: { faucet: Faucet; kv: KeyValueStore; limits: FaucetLimits }): Router {
  const { faucet } = deps;
  const router = Router();
  const { kv, limits } = deps;
  // Three limits, so that neither fresh addresses from one client nor many clients drain the faucet's account.
  const perClient = rateLimit(kv, { name: "faucet-client", ...limits.faucetClient, message: FAUCET_ANSWERS.clientLimit });
  const perFunded = rateLimit(kv, {
    name: "faucet",
    ...limits.faucet,
    key: (req) => String(req.body?.address ?? req.body?.walletAddress ?? "").toLowerCase(),
    message: FAUCET_ANSWERS.fundedRecently,
  });
  const budget = rateLimit(kv, { name: "faucet-budget", ...limits.faucetBudget, key: () => "all", message: FAUCET_ANSWERS.budgetSpent });
  router.post("/faucet", validate(faucetRequestSchema), perClient, perFunded, budget, async (req, res) => {
    const to = getAddress((req.body.address ?? req.body.walletAddress) as string);
    const result = await faucet.drip(to);
    ok(res, result, FAUCET_ANSWERS.sent(to, result.eth, result.usd));
  });
  return router;
}
