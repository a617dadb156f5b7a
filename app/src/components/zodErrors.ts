import type { ZodError } from "zod";

/** The first message per field, keyed by the first path segment. */
export function fieldErrors(error: ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "");
    if (!out[key]) out[key] = issue.message;
  }
  return out;
}
