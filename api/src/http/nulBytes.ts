import type { RequestHandler } from "express";
import { badRequest } from "./errors";

export const NUL_MESSAGE = "Text must not contain NUL characters";

/** True when any string (or key) in a parsed JSON body or query holds U+0000; iterative, so deep nesting cannot overflow. */
export function holdsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length) {
    const item = pending.pop();
    if (typeof item === "string") {
      if (item.includes("\u0000")) return true;
    } else if (item && typeof item === "object") {
      for (const [key, child] of Object.entries(item)) {
        if (key.includes("\u0000")) return true;
        pending.push(child);
      }
    }
  }
  return false;
}

/**
 * PostgreSQL text cannot hold U+0000: a body or query carrying one would fail in the database as a 500.
 * No field of this API has a use for it, so it is refused at the door with a 400.
 */
export const refuseNulBytes: RequestHandler = (req, _res, next) => {
  if (holdsNul(req.body) || holdsNul(req.query)) throw badRequest(NUL_MESSAGE);
  next();
};
