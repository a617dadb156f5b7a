import { z } from "zod";

/**
 * page and limit for the few lists whose handlers clamp the numbers by hand rather than with a schema:
 * it describes what they accept (out-of-range values are clamped, not refused).
 */
export function pageQuery(defaultLimit: number, maxLimit: number) {
  return z.object({
    page: z.coerce.number().int().min(1).default(1),
    limit: z.coerce.number().int().min(1).max(maxLimit).default(defaultLimit),
  });
}
