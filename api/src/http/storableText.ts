import type { RequestHandler } from "express";
import { badRequest } from "./errors";

export const NUL_MESSAGE = "Text must not contain NUL characters";
export const UNICODE_MESSAGE = "Text must be valid Unicode";

/**
 * What PostgreSQL cannot store in a string (or key) of a parsed JSON body or query: U+0000 (text and jsonb refuse it)
 * or a lone UTF-16 surrogate (jsonb refuses its escape, text stores it mangled). Iterative, so deep nesting cannot
 * overflow; null when every string is storable.
 */
export function unstorableText(value: unknown): typeof NUL_MESSAGE | typeof UNICODE_MESSAGE | null {
  const pending: unknown[] = [value];
  while (pending.length) {
    const item = pending.pop();
    if (typeof item === "string") {
      const problem = textProblem(item);
      if (problem) return problem;
    } else if (item && typeof item === "object") {
      for (const [key, child] of Object.entries(item)) {
        const problem = textProblem(key);
        if (problem) return problem;
        pending.push(child);
      }
    }
  }
  return null;
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one (String#isWellFormed, pre-ES2024). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function textProblem(text: string) {
  if (text.includes("\u0000")) return NUL_MESSAGE;
  return LONE_SURROGATE.test(text) ? UNICODE_MESSAGE : null;
}

/** No field of this API has a use for such text: it is refused at the door with a 400, not failed on in the database as a 500. */
export const refuseUnstorableText: RequestHandler = (req, _res, next) => {
  const problem = unstorableText(req.body) ?? unstorableText(req.query);
  if (problem) throw badRequest(problem);
  next();
};
