import { Router, type RequestHandler } from "express";
import { z } from "zod";
import { ok } from "../http/envelope";
import { currentUser } from "../http/auth";
import type { ActivityService } from "./service";

/** Exported for the API docs, which describe the query with this same schema. */
export const limitQuery = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50).catch(50) });

/** The signed-in user's on-chain activity from the chain mirror: /activity, /activity/summary, /activity/loans/{id}. */
export function createActivityRouter(deps: { service: ActivityService; auth: RequestHandler }): Router {
  const { service, auth } = deps;
  const router = Router();
  router.use(auth);

  router.get("/", async (req, res) => {
    ok(res, await service.transactions(currentUser(req), limitQuery.parse(req.query).limit));
  });

  router.get("/summary", async (req, res) => {
    ok(res, await service.summary(currentUser(req)));
  });

  router.get("/loans/:id", async (req, res) => {
    ok(res, await service.loan(currentUser(req), String(req.params.id)));
  });

  return router;
}
