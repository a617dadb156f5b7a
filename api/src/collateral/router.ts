import { Router, type RequestHandler } from "express";
import { collateralAppraisalSchema, collateralClaimSchema } from "#domain/schemas/loans";
import { tokenIdSchema } from "#domain/schemas/nfts";
import { ok } from "../http/envelope";
import { currentUser, requireAdmin } from "../http/auth";
import { validate } from "../http/validate";
import type { CollateralService } from "./service";
import { COLLATERAL_TEXTS } from "./texts";

export interface CollateralRouters {
  /** Mounted at /collateral: the wizard's picker and the accepted collections. */
  collateral: Router;
  /** Mounted at /loans: a loan's pledged piece read live. */
  loans: Router;
  /** Mounted at /admin (admins only, on each route): the appraisal. */
  admin: Router;
  /** Mounted at /nfts: the claim of a defaulted note's piece. */
  nfts: Router;
}

const id = (value: unknown) => String(value);
const tokenId = (value: unknown) => tokenIdSchema.parse(String(value));

/** The pledged-NFT routes, each mounted beside the component whose paths it shares. */
export function createCollateralRouters(deps: { service: CollateralService; auth: RequestHandler }): CollateralRouters {
  const { service, auth } = deps;
  const collateral = Router();
  const loans = Router();
  const admin = Router();
  const nfts = Router();

  collateral.get("/mine", auth, async (req, res) => {
    ok(res, await service.mine(currentUser(req)));
  });

  collateral.get("/collections", async (_req, res) => {
    ok(res, await service.collections());
  });

  loans.get("/:id/collateral", auth, async (req, res) => {
    ok(res, await service.check(currentUser(req), id(req.params.id)));
  });

  admin.put("/loans/:id/collateral/appraisal", auth, requireAdmin, validate(collateralAppraisalSchema), async (req, res) => {
    ok(res, await service.appraise(currentUser(req), id(req.params.id), req.body), COLLATERAL_TEXTS.appraisalSaved);
  });

  nfts.post("/:tokenId/collateral/claim", auth, validate(collateralClaimSchema), async (req, res) => {
    ok(res, await service.claim(currentUser(req), tokenId(req.params.tokenId), req.body), COLLATERAL_TEXTS.claimReady);
  });

  return { collateral, loans, admin, nfts };
}
