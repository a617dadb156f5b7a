import { Router, type RequestHandler } from "express";
import type { Db } from "#db/connect";
import { adminUsersQuerySchema, repriceSchema, treasuryAcceptSchema } from "#domain/schemas/admin";
import { kycDecisionSchema } from "#domain/schemas/kyc";
import { loanApprovalSchema, loanDecisionSchema, loanListQuerySchema, loanRejectionSchema } from "#domain/schemas/loans";
import { ethAddress } from "#domain/schemas/common";
import { ok } from "../http/envelope";
import { notFound } from "../http/errors";
import { currentUser, requireAdmin } from "../http/auth";
import { validate } from "../http/validate";
import { paging } from "../http/paging";
import type { ContactRepository } from "../contact/repository";
import type { KycService } from "../kyc/service";
import type { LoansService } from "../loans/service";
import type { LoanWatcher } from "../jobs/loanWatcher";
import type { Origination } from "../loans/origination";
import type { TreasuryService } from "../treasury/service";
import type { TreasuryOffers } from "../treasury/offers";
import type { UsersRepository } from "../users/repository";
import { toWireUser } from "../users/wire";
import { LOAN_ANSWERS } from "../loans/texts";
import { TREASURY_ANSWERS } from "../treasury/texts";
import { adminDashboard } from "./dashboard";
import { listUsers } from "./users";
import { allNfts } from "./nfts";
import { readDeployment } from "../config/deployment";
import type { AppConfig } from "../config/env";

export interface AdminRouterDeps {
  db: Db;
  config: AppConfig;
  auth: RequestHandler;
  loans: LoansService;
  kyc: KycService;
  users: UsersRepository;
  treasury: TreasuryService;
  treasuryOffers: TreasuryOffers;
  watcher: LoanWatcher;
  origination: Origination;
  contact: ContactRepository;
}

const id = (value: unknown) => String(value);
const USER_NOT_FOUND = "User not found";

/** Everything under /admin: admins only, enforced once for the whole router. */
export function createAdminRouter(deps: AdminRouterDeps): Router {
  const { db, config, loans, kyc, treasury, watcher } = deps;
  const router = Router();
  router.use(deps.auth, requireAdmin);

  router.get("/dashboard", async (req, res) => {
    ok(res, await adminDashboard(db, config.chainId, currentUser(req).id));
  });

  router.get("/loans", async (req, res) => {
    ok(res, await loans.page(loanListQuerySchema.parse(req.query)));
  });

  router.get("/loans/:id", async (req, res) => {
    ok(res, await loans.wireById(id(req.params.id)));
  });

  router.put("/loans/:id/approve", validate(loanApprovalSchema), async (req, res) => {
    const { loan, minted } = await loans.approve(currentUser(req), id(req.params.id), req.body);
    ok(res, loan, minted ? LOAN_ANSWERS.approved : LOAN_ANSWERS.approvedMintFailed);
  });

  router.put("/loans/:id/reject", validate(loanRejectionSchema), async (req, res) => {
    ok(res, await loans.reject(currentUser(req), id(req.params.id), req.body), LOAN_ANSWERS.rejected);
  });

  // The spec's decision action: {decision: {status, rejectionReason, fundingAmount}} (or the decision itself).
  router.put("/loans/:id/decision", async (req, res) => {
    const decision = loanDecisionSchema.parse(req.body?.decision ?? req.body ?? {});
    const admin = currentUser(req);
    if (decision.status === "approved") {
      const input = loanApprovalSchema.parse({ fundingAmount: decision.fundingAmount, walletAddress: req.body?.walletAddress, adminNotes: req.body?.adminNotes ?? req.body?.notes });
      const { loan, minted } = await loans.approve(admin, id(req.params.id), input);
      return ok(res, loan, minted ? LOAN_ANSWERS.approved : LOAN_ANSWERS.approvedMintFailed);
    }
    const input = loanRejectionSchema.parse({ rejectionReason: decision.rejectionReason, adminNotes: req.body?.adminNotes ?? req.body?.notes });
    return ok(res, await loans.reject(admin, id(req.params.id), input), LOAN_ANSWERS.rejected);
  });

  router.post("/loans/:id/default", async (req, res) => {
    await watcher.markDefaulted(id(req.params.id), currentUser(req).id);
    ok(res, await loans.wireById(id(req.params.id)), LOAN_ANSWERS.defaulted);
  });

  router.post("/loans/:id/retry-listing", async (req, res) => {
    ok(res, await loans.retryListing(currentUser(req), id(req.params.id)), LOAN_ANSWERS.listingRetried);
  });

  router.post("/nfts/:id/retry-mint", async (req, res) => {
    const wallet = req.body?.walletAddress ? ethAddress.parse(req.body.walletAddress) : undefined;
    const { loan, minted } = await loans.retryMint(currentUser(req), id(req.params.id), wallet);
    ok(res, loan, minted ? LOAN_ANSWERS.retryStarted : LOAN_ANSWERS.approvedMintFailed);
  });

  // Runs the defaults job and the reconciliation now, rather than waiting for their schedule.
  router.post("/jobs/loan-watcher", async (_req, res) => {
    ok(res, await watcher.runOnce());
  });
  router.post("/jobs/reconcile", async (_req, res) => {
    ok(res, await deps.origination.reconcileAll());
  });

  router.get("/users", async (req, res) => {
    ok(res, await listUsers(db, adminUsersQuerySchema.parse(req.query), config.appOrigin));
  });

  router.get("/users/:id", async (req, res) => {
    const user = await deps.users.findById(id(req.params.id));
    if (!user) throw notFound(USER_NOT_FOUND);
    const own = await loans.page(loanListQuerySchema.parse({ limit: 100 }), user.id);
    ok(res, { ...toWireUser(user, config.appOrigin), kyc: await kyc.kycOf(user), loans: own.loans });
  });

  router.put("/users/:id/kyc", validate(kycDecisionSchema), async (req, res) => {
    const { user, kyc: state, message } = await kyc.decide(currentUser(req), id(req.params.id), req.body);
    ok(res, { ...toWireUser(user, config.appOrigin), kyc: state }, message);
  });

  router.get("/treasury", async (_req, res) => {
    ok(res, await treasury.summary());
  });

  router.put("/treasury/notes/:tokenId/price", validate(repriceSchema), async (req, res) => {
    const { message, ...data } = await treasury.reprice(id(req.params.tokenId), req.body, currentUser(req).id);
    ok(res, data, message);
  });

  // Lists the note again at 100% of par (a new signed listing, the old ones cancelled on-chain).
  router.put("/treasury/notes/:tokenId/par", async (req, res) => {
    const { message, ...data } = await treasury.reprice(id(req.params.tokenId), "par", currentUser(req).id);
    ok(res, data, message);
  });

  router.put("/treasury/notes/:tokenId/unlist", async (req, res) => {
    ok(res, await treasury.unlist(id(req.params.tokenId), currentUser(req).id), TREASURY_ANSWERS.unlisted);
  });

  router.post("/treasury/withdraw", async (_req, res) => {
    ok(res, await treasury.withdraw(), TREASURY_ANSWERS.withdrawn);
  });

  router.get("/treasury/offers", async (_req, res) => {
    ok(res, await deps.treasuryOffers.open());
  });

  // The treasury sells its note to the offer's buyer; the server signs and sends the acceptance with the treasury key.
  router.post("/treasury/offers/:hash/accept", validate(treasuryAcceptSchema), async (req, res) => {
    ok(res, await deps.treasuryOffers.accept(id(req.params.hash), req.body), TREASURY_ANSWERS.offerAccepted);
  });

  router.get("/contact", async (req, res) => {
    const { limit, offset } = paging(req.query, { limit: 50, maxLimit: 200 });
    const rows = await deps.contact.list(limit, offset);
    ok(res, {
      messages: rows.map((row) => ({
        _id: row.id,
        name: row.name,
        email: row.email,
        phone: row.phone,
        subject: row.subject,
        message: row.message,
        userId: row.userId,
        read: row.readAt !== null,
        readAt: row.readAt?.toISOString() ?? null,
        createdAt: row.createdAt.toISOString(),
      })),
    });
  });

  router.put("/contact/:id/read", async (req, res) => {
    const messageId = id(req.params.id);
    if (!/^[0-9a-f-]{36}$/i.test(messageId)) throw notFound("Message not found");
    const row = await deps.contact.markRead(messageId, new Date());
    if (!row) throw notFound("Message not found");
    ok(res, { _id: row.id, read: true, readAt: row.readAt!.toISOString() });
  });

  return router;
}

/** GET /nfts/admin/all, mounted at /nfts/admin before the NFT routes so it is never read as a token id. */
export function createNftsAdminRouter(deps: { db: Db; config: AppConfig; auth: RequestHandler }): Router {
  const router = Router();
  router.get("/all", deps.auth, requireAdmin, async (req, res) => {
    const { page, limit } = paging(req.query, { limit: 50, maxLimit: 100 });
    const deployment = await readDeployment(deps.config.dataDir, deps.config.chainId);
    const mintStatus = typeof req.query.mintStatus === "string" && ["minting", "minted", "failed"].includes(req.query.mintStatus) ? req.query.mintStatus : undefined;
    ok(res, await allNfts(deps.db, { chainId: deps.config.chainId, loanNote: deployment?.contracts.loanNote ?? null, page, limit, mintStatus }));
  });
  return router;
}
