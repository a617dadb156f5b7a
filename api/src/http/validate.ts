import type { RequestHandler } from "express";
import type { z } from "zod";

/** Parses req.body with a domain schema; the parsed value replaces the body, errors reach the error handler. */
export function validate<T extends z.ZodType>(schema: T): RequestHandler {
  return (req, _res, next) => {
    req.body = schema.parse(req.body ?? {});
    next();
  };
}
