import type { IncomingMessage } from "node:http";
import type { ErrorRequestHandler, RequestHandler, Response } from "express";
import { ZodError } from "zod";
import { DrizzleQueryError } from "drizzle-orm";
import { isConnectionLost } from "#db/connectionLost";
import { fail } from "./envelope";

export const MESSAGES = {
  unauthenticated: "Authentication required",
  badToken: "Invalid or expired token",
  forbidden: "Access denied",
  notFound: "Not found",
  tooMany: "Too many requests. Please try again later.",
  serverError: "Server error. Please try again later.",
  badJson: "The request body is not valid JSON",
  tooLarge: "The request body is too large",
  databaseDown: "The database is unavailable. Please try again shortly.",
} as const;

/** An error whose status and message are fit to show the client. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly data: unknown = null,
    /** Sent as Retry-After: when a refusal for load, not for the request, may be tried again. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const badRequest = (message: string) => new AppError(400, message);
export const unauthorized = (message: string = MESSAGES.unauthenticated) => new AppError(401, message);
export const forbidden = () => new AppError(403, MESSAGES.forbidden);
export const notFound = (message: string = MESSAGES.notFound) => new AppError(404, message);
export const conflict = (message: string) => new AppError(409, message);

export const notFoundHandler: RequestHandler = (_req, res) => {
  fail(res, 404, MESSAGES.notFound);
};

/**
 * True when the database could not be reached (down, restarting, refusing connections): the request may work
 * in a moment, so it is a 503, not a 500. Only what the pg driver throws, bare or wrapped by drizzle, counts:
 * the chain client and fetch wrap their own network errors.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return isConnectionLost(error instanceof DrizzleQueryError ? error.cause : error);
}

interface Logger {
  error(obj: unknown, msg?: string): void;
}

/** The one error handler: bad input is a 400 with the first issue's spec message, never a 500. */
export function errorHandler(logger?: Logger): ErrorRequestHandler {
  const answer = answerError(logger);
  return (error, req, res, _next) => {
    if (res.headersSent) return;
    if (req.complete) {
      answer(error, res);
      return;
    }
    // Refused mid-body (an upload over its limit): answered with the client's bytes unread, the kernel resets the
    // connection and a client still sending sees ECONNRESET instead of the 413. Read the rest, within bounds, first.
    readRestOfBody(req, (cut) => {
      if (cut) res.setHeader("Connection", "close");
      answer(error, res);
    });
  };
}

const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;
const DRAIN_LIMIT_MS = 10_000;

/** Discards what is left of the body, then calls done; past the bounds it stops early and says the body was cut. */
function readRestOfBody(req: IncomingMessage, done: (cut: boolean) => void): void {
  let read = 0;
  let finished = false;
  const finish = (cut: boolean) => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    req.off("data", count);
    done(cut);
  };
  const count = (chunk: Buffer) => {
    read += chunk.length;
    if (read > DRAIN_LIMIT_BYTES) finish(true);
  };
  const timer = setTimeout(() => finish(true), DRAIN_LIMIT_MS);
  req.on("data", count);
  req.once("end", () => finish(false));
  req.once("error", () => finish(true));
  req.resume();
}

/** What Express's own middleware (body-parser, multer…) puts on the errors it throws. */
interface HttpErrorMarks {
  status?: unknown;
  statusCode?: unknown;
  type?: unknown;
  expose?: unknown;
  message?: unknown;
}

function answerError(logger?: Logger) {
  return (error: unknown, res: Response) => {
    if (error instanceof ZodError) {
      const first = error.issues[0];
      return fail(res, 400, first?.message ?? "Invalid request", {
        errors: error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message })),
      });
    }
    if (error instanceof AppError) {
      if (error.retryAfterSeconds !== undefined) res.setHeader("Retry-After", String(error.retryAfterSeconds));
      return fail(res, error.status, error.message, error.data);
    }
    if (isDatabaseUnavailable(error)) {
      res.setHeader("Retry-After", "5");
      return fail(res, 503, MESSAGES.databaseDown);
    }
    // body-parser and friends mark client mistakes with a 4xx status.
    const marked = (typeof error === "object" && error !== null ? error : {}) as HttpErrorMarks;
    const status = typeof marked.status === "number" ? marked.status : typeof marked.statusCode === "number" ? marked.statusCode : 500;
    if (status === 400 && marked.type === "entity.parse.failed") return fail(res, 400, MESSAGES.badJson);
    if (status === 413) return fail(res, 413, MESSAGES.tooLarge);
    if (status >= 400 && status < 500) return fail(res, status, marked.expose ? String(marked.message) : "Bad request");
    logger?.error({ err: error }, "unhandled error");
    return fail(res, 500, MESSAGES.serverError);
  };
}
