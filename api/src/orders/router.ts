import { Router } from "express";
import { tokenIdSchema } from "#domain/schemas/nfts";
import { orderSubmissionSchema, orderTypedDataRequestSchema } from "#domain/wire/order";
import { ok } from "../http/envelope";
import { currentUser, requireAuth } from "../http/auth";
import { validate } from "../http/validate";
import { rateLimit, type RateLimitRule } from "../http/rateLimit";
import type { KeyValueStore } from "../kv/store";
import type { TokenService } from "../auth/tokens";
import type { UsersRepository } from "../users/repository";
import type { OrdersRepository } from "./repository";
import type { OrdersService } from "./service";
import { ORDER_ANSWERS } from "./texts";

/**
 * Signed orders: the typed data to sign, publishing a signed order, and the book. The book is public
 * (as a note's page is); what a user made and received needs their sign-in and shows only their wallet's.
 */
export function createOrdersRouter(deps: {
  service: OrdersService;
  repo: Pick<OrdersRepository, "heldTokenIds">;
  tokens: TokenService;
  users: Pick<UsersRepository, "findById">;
  kv: KeyValueStore;
  publishLimit: RateLimitRule;
}): Router {
  const { service } = deps;
  const auth = requireAuth(deps.tokens, (id) => deps.users.findById(id));
  const router = Router();
  // Per user, whatever address they call from: each publish reads the chain and may notify note holders.
  const perUser = (name: string) => rateLimit(deps.kv, { name, ...deps.publishLimit, key: (req) => currentUser(req).id, message: ORDER_ANSWERS.tooMany(deps.publishLimit.max) });
  const typedDataRate = perUser("order-typed-data");
  const publishRate = perUser("order-publish");

  router.post("/typed-data", auth, validate(orderTypedDataRequestSchema), typedDataRate, async (req, res) => {
    ok(res, await service.typedData(currentUser(req), req.body), ORDER_ANSWERS.typedData);
  });

  router.post("/", auth, validate(orderSubmissionSchema), publishRate, async (req, res) => {
    ok(res, await service.submit(currentUser(req), req.body), ORDER_ANSWERS.created, 201);
  });

  router.get("/mine", auth, async (req, res) => {
    ok(res, await service.mine(currentUser(req), (wallet) => deps.repo.heldTokenIds(wallet)));
  });

  router.get("/matching", async (_req, res) => {
    ok(res, await service.matching());
  });

  router.get("/note/:tokenId", async (req, res) => {
    ok(res, await service.book(tokenIdSchema.parse(String(req.params.tokenId))));
  });

  return router;
}
