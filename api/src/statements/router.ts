import { Router, type RequestHandler } from "express";
import { statementPeriodQuery } from "#domain/schemas/statements";
import { ok } from "../http/envelope";
import { currentUser } from "../http/auth";
import type { StatementsService } from "./service";

/**
 * Statements read from the chain mirror: a loan's for its borrower (or an admin), mounted under /loans, and the
 * signed-in investor's for a period, mounted under /portfolio.
 */
export function createStatementsRouters(deps: { service: StatementsService; auth: RequestHandler }): { loans: Router; portfolio: Router } {
  const { service, auth } = deps;
  const loans = Router();
  loans.get("/:id/statement", auth, async (req, res) => {
    ok(res, await service.loan(currentUser(req), String(req.params.id)));
  });

  const portfolio = Router();
  portfolio.get("/statement", auth, async (req, res) => {
    ok(res, await service.portfolio(currentUser(req), statementPeriodQuery.parse(req.query)));
  });
  return { loans, portfolio };
}
