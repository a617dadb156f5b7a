import { z } from "zod";

/**
 * page and limit of the lists read with paging() (api/src/http/paging.ts) rather than a schema: what they accept.
 * A value out of range or not a whole number is not refused; the list falls back to the default or the bound.
 */
export function pageQuery(defaultLimit: number, maxLimit: number) {
  return z.object({
    page: z.coerce.number().int().min(1).default(1),
    limit: z.coerce.number().int().min(1).max(maxLimit).default(defaultLimit),
  });
}
