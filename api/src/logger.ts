import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import { mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";
import type { RequestHandler } from "express";
import { pino, symbols, type DestinationStream, type Logger } from "pino";
import { pinoHttp } from "pino-http";

/** The id of the request being handled, for whatever runs on its behalf (services, jobs it awaits). */
const requestScope = new AsyncLocalStorage<string>();

/** An incoming X-Request-Id is kept when it is a short token (a proxy's or a client's trace id); anything else is replaced. */
const SANE_REQUEST_ID = /^[\w.:@/+=-]{1,128}$/;

/** Requests too frequent to log each one: health probes and metric scrapes. */
const QUIET_PATHS = new Set(["/api/health", "/metrics"]);

/**
 * The one way loggers are made: request logs never carry bearer tokens, cookies or passwords, and every line
 * written while a request is handled carries its `reqId`, whichever logger the service was given.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    redact: { paths: ["req.headers.authorization", "req.headers.cookie", "res.headers['set-cookie']", "*.password", "*.newPassword", "*.currentPassword"], censor: "[redacted]" },
    mixin: requestIdMixin,
  };
  return destination ? pino(options, destination) : pino(options);
}

const LEVEL_ORDER = ["trace", "debug", "info", "warn", "error", "fatal", "silent"];

/**
 * The process's logger from its settings: LOG_LEVEL to stdout and, with LOG_FILE, info and above (or LOG_LEVEL when
 * it says more) to that file, so a terminal shows warnings while every request is still on record.
 */
export function createConfiguredLogger(config: { logLevel: string; logFile?: string }): Logger {
  if (!config.logFile) return createLogger(config.logLevel);
  const fileLevel = LEVEL_ORDER.indexOf(config.logLevel) < LEVEL_ORDER.indexOf("info") ? config.logLevel : "info";
  const streams = [
    { level: fileLevel, stream: pino.destination({ dest: openLogFile(config.logFile), sync: false }) },
    ...(config.logLevel === "silent" ? [] : [{ level: config.logLevel, stream: process.stdout }]),
  ];
  const logger = createLogger(fileLevel, pino.multistream(streams as Parameters<typeof pino.multistream>[0]));
  return logger;
}

/**
 * The log file opened now, not by the stream in the background: pino flushes it synchronously when the process exits,
 * and a start refused in its first milliseconds (a bad configuration) otherwise crashed with "sonic boom is not ready
 * yet" after printing its one problem line.
 */
function openLogFile(path: string): number {
  mkdirSync(dirname(path), { recursive: true });
  return openSync(path, "a");
}

function requestIdMixin(_merge: object, _level: number, logger: Logger): object {
  const reqId = requestScope.getStore();
  if (!reqId) return {};
  // The request's own logger (req.log) binds reqId already; a second copy would repeat the key in the line.
  const bindings = (logger as unknown as Record<symbol, string | undefined>)[symbols.chindingsSym];
  return bindings?.includes('"reqId":') ? {} : { reqId };
}

/**
 * Gives each request an id (a sane incoming X-Request-Id, or a new UUID), echoes it in the response's
 * X-Request-Id, binds it to req.log and runs the rest of the request inside its scope.
 */
export function requestLogging(logger: Logger): RequestHandler {
  const http = pinoHttp({
    logger,
    quietReqLogger: true,
    genReqId: (req, res) => {
      const incoming = req.headers["x-request-id"];
      const id = typeof incoming === "string" && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
      res.setHeader("X-Request-Id", id);
      return id;
    },
    autoLogging: { ignore: (req) => QUIET_PATHS.has((req.url ?? "").split("?")[0]) },
  });
  return (req, res, next) => http(req, res, () => requestScope.run(String(req.id), next));
}
