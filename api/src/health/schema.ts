import { z } from "zod";

/** What GET /api/health answers in `data`; the API docs show it and the health tests parse every answer with it. */
export const healthSchema = z.strictObject({
  status: z.enum(["ok", "degraded", "down"]),
  database: z.enum(["ok", "unreachable"]),
  redis: z.enum(["ok", "unreachable", "not configured"]),
  chain: z.enum(["ok", "unreachable", "wrong chain"]),
  chainId: z.number().int(),
  indexer: z.strictObject({
    status: z.enum(["ok", "behind", "not running", "not deployed", "unknown"]),
    blockNumber: z.number().int().nullable(),
    head: z.number().int().nullable(),
    lagBlocks: z.number().int().min(0).nullable(),
    lastIndexedAt: z.string().nullable(),
  }),
  databaseKind: z.string(),
  uptimeSeconds: z.number().int(),
});
