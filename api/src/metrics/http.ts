import type { Request, RequestHandler } from "express";
import { Counter, Histogram, type Registry } from "prom-client";

const LABELS = ["method", "route", "status"] as const;

/**
 * Counts and times every request by method, route template and status. The route is the template that
 * matched ("/api/nfts/:tokenId"), never the raw URL, so a scan of random paths cannot grow the series.
 */
export function httpMetrics(registry: Registry): RequestHandler {
  const requests = new Counter({ name: "http_requests_total", help: "HTTP requests answered, by method, route template and status", labelNames: LABELS, registers: [registry] });
  const duration = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time from a request's arrival to its last byte sent, by method, route template and status",
    labelNames: LABELS,
    registers: [registry],
  });
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const route = trackRoute(req);
    res.once("close", () => {
      // A client that hung up before the answer was sent is counted apart from real statuses.
      const labels = { method: method(req.method), route: route(), status: res.writableFinished ? String(res.statusCode) : "aborted" };
      requests.inc(labels);
      duration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };
}

const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const method = (name: string) => (KNOWN_METHODS.has(name) ? name : "OTHER");

/**
 * The router assigns req.route where a route matches, while req.baseUrl still holds the routers' mount
 * paths; both are unwound by the time the response ends (on an error, say), so the template is taken then.
 */
function trackRoute(req: Request): () => string {
  let route: unknown;
  let template: string | undefined;
  Object.defineProperty(req, "route", {
    configurable: true,
    enumerable: true,
    get: () => route,
    set(value: { path?: unknown } | undefined) {
      route = value;
      if (typeof value?.path === "string") template = `${req.baseUrl}${value.path}`.replace(/(.)\/$/, "$1");
    },
  });
  return () => template ?? (/^\/api(\/|$)/.test(req.originalUrl) ? "<unmatched>" : "<app>");
}
