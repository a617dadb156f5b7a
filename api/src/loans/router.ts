import { Router, type RequestHandler } from "express";
import { LOAN_MESSAGES, loanApprovalSchema, loanListQuerySchema, loanRejectionSchema, loanRequestSchema, repaymentSchema } from "#domain/schemas/loans";
import { ok } from "../http/envelope";
import { currentUser, requireAdmin } from "../http/auth";
import { validate } from "../http/validate";
import { rateLimit, type RateLimitRule } from "../http/rateLimit";
import type { KeyValueStore } from "../kv/store";
import type { LoansService } from "./service";
import { LOAN_ANSWERS } from "./texts";

const id = (value: unknown) => String(value);

/** The borrower's paths under /loans: request, my loans, one loan, repayment. */
export function createLoansRouter(deps: { service: LoansService; auth: RequestHandler; kv: KeyValueStore; requestLimit: RateLimitRule }): Router {
  const { service, auth } = deps;
  const router = Router();
  // Per borrower, whatever address they call from: every request notifies every admin.
  const requestRate = rateLimit(deps.kv, { name: "loan-request", ...deps.requestLimit, key: (req) => currentUser(req).id, message: LOAN_MESSAGES.requestRate });

  router.post("/request", auth, validate(loanRequestSchema), requestRate, async (req, res) => {
    ok(res, await service.request(currentUser(req), req.body), LOAN_ANSWERS.submitted, 201);
  });

  router.get("/my-loans", auth, async (req, res) => {
    const query = loanListQuerySchema.parse({ limit: 50, ...req.query });
    ok(res, await service.mine(currentUser(req), query));
  });

  router.get("/:id", auth, async (req, res) => {
    ok(res, await service.get(currentUser(req), id(req.params.id)));
  });

  router.put("/:id/repayment", auth, validate(repaymentSchema), async (req, res) => {
    ok(res, await service.repayment(currentUser(req), id(req.params.id), req.body), LOAN_ANSWERS.repaymentReady);
  });

  return router;
}

/** The spec's admin paths under /loans, answered by the same service as /admin/loans. */
export function createLoansAdminRouter(deps: { service: LoansService; auth: RequestHandler }): Router {
  const { service } = deps;
  const admin = [deps.auth, requireAdmin];
  const router = Router();

  router.get("/admin/stats", ...admin, async (_req, res) => {
    ok(res, await service.stats());
  });

  router.get("/admin/requests", ...admin, async (req, res) => {
    ok(res, await service.page(loanListQuerySchema.parse(req.query)));
  });

  router.get("/admin/requests/:id", ...admin, async (req, res) => {
    ok(res, await service.wireById(id(req.params.id)));
  });

  router.put("/admin/approve/:id", ...admin, validate(loanApprovalSchema), async (req, res) => {
    const { loan, minted } = await service.approve(currentUser(req), id(req.params.id), req.body);
    ok(res, loan, minted ? LOAN_ANSWERS.approved : LOAN_ANSWERS.approvedMintFailed);
  });

  router.put("/admin/reject/:id", ...admin, validate(loanRejectionSchema), async (req, res) => {
    ok(res, await service.reject(currentUser(req), id(req.params.id), req.body), LOAN_ANSWERS.rejected);
  });

  // The admin demo loan button: a real pending request for the demo borrower.
  router.post("/", ...admin, async (req, res) => {
    ok(res, await service.demo(currentUser(req)), LOAN_ANSWERS.demoCreated, 201);
  });

  return router;
}
