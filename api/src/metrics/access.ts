import { createHash, timingSafeEqual } from "node:crypto";
import type { Request, RequestHandler } from "express";
import { AppError, unauthorized } from "../http/errors";

/** Headers a reverse proxy adds: a request carrying one came from elsewhere, even over loopback. */
const FORWARDED = ["forwarded", "x-forwarded-for", "x-real-ip"];

/**
 * With METRICS_TOKEN, /metrics asks every scraper for it as a bearer token; without one, it answers only
 * clients on this machine that did not come through a proxy (docs/decisions.md "Metrics").
 */
export function metricsAccess(token: string | undefined): RequestHandler {
  const expected = token ? digest(token) : null;
  return (req, _res, next) => {
    if (expected) {
      const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "");
      return next(match && timingSafeEqual(digest(match[1]), expected) ? undefined : unauthorized("A valid metrics token is required"));
    }
    if (fromThisMachine(req)) return next();
    next(new AppError(403, "Metrics are served to this machine only; set METRICS_TOKEN to scrape them from elsewhere"));
  };
}

function fromThisMachine(req: Request): boolean {
  const address = req.socket.remoteAddress ?? "";
  const loopback = address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127.");
  return loopback && FORWARDED.every((header) => req.headers[header] === undefined);
}

/** Equal-length digests, so the comparison takes the same time whatever was sent. */
const digest = (value: string) => createHash("sha256").update(value).digest();
