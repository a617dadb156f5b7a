import type { RequestHandler } from "express";
import type { z } from "zod";

// The API docs read each route's body schema off its stack, so the documented body is the enforced one.
const bodySchemas = new WeakMap<RequestHandler, z.ZodType>();

/** Parses req.body with a domain schema; the parsed value replaces the body, errors reach the error handler. */
export function validate<T extends z.ZodType>(schema: T): RequestHandler {
  const handler: RequestHandler = (req, _res, next) => {
    req.body = schema.parse(req.body ?? {});
    next();
  };
  bodySchemas.set(handler, schema);
  return handler;
}

/** The schema a validate() middleware parses bodies with, or undefined for any other handler. */
export function validatedBodySchema(handler: RequestHandler): z.ZodType | undefined {
  return bodySchemas.get(handler);
}
