import type { Request, RequestHandler } from "express";
import type { UserRow } from "#db/schema";
import type { TokenService } from "../auth/tokens";
import { forbidden, unauthorized, MESSAGES } from "./errors";

// Every request handler sees the signed-in user that requireAuth puts on the request.
declare module "express-serve-static-core" {
  interface Request {
    user?: UserRow;
  }
}

export function bearerToken(req: Request): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match ? match[1] : "";
}

type FindUser = (id: string) => Promise<UserRow | undefined>;

/** Resolves the bearer token to a current user; a token of a deleted user is as bad as a forged one. */
export async function userFromRequest(req: Request, tokens: TokenService, findUser: FindUser): Promise<UserRow | null> {
  const token = bearerToken(req);
  if (token === null) return null;
  const claims = token ? await tokens.verify(token) : null;
  const user = claims ? await findUser(claims.userId) : undefined;
  if (!user || !tokens.current(user, claims!.stamp)) throw unauthorized(MESSAGES.badToken);
  return user;
}

export function requireAuth(tokens: TokenService, findUser: FindUser): RequestHandler {
  return async (req, _res, next) => {
    const user = await userFromRequest(req, tokens, findUser);
    if (!user) throw unauthorized();
    req.user = user;
    next();
  };
}

/** Signs the user in when a token is present; an invalid token is still refused. */
export function optionalAuth(tokens: TokenService, findUser: FindUser): RequestHandler {
  return async (req, _res, next) => {
    req.user = (await userFromRequest(req, tokens, findUser)) ?? undefined;
    next();
  };
}

/** After requireAuth: 403 'Access denied' for anyone but an admin. */
export const requireAdmin: RequestHandler = (req, _res, next) => {
  if (req.user?.role !== "admin") throw forbidden();
  next();
};

export function currentUser(req: Request): UserRow {
  if (!req.user) throw unauthorized();
  return req.user;
}
