import { Router, type RequestHandler } from "express";
import { ok } from "../http/envelope";
import { requireAdmin } from "../http/auth";
import { reconciliationVerdict } from "#domain/wire/reconciliation";
import type { ReconciliationService } from "./service";

/**
 * GET /admin/reconciliation, mounted at /admin beside the admin router: admins only, guarded on the route itself so
 * this router never answers for the other /admin paths.
 */
export function createReconciliationRouter(deps: { service: ReconciliationService; auth: RequestHandler }): Router {
  const router = Router();
  router.get("/reconciliation", deps.auth, requireAdmin, async (_req, res) => {
    const report = await deps.service.report();
    ok(res, report, reconciliationVerdict(report));
  });
  return router;
}
