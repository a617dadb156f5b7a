import { z } from "zod";
import { publicConfigSchema } from "#domain/deployment";
import { healthSchema } from "../../health/schema";
import { ALLOWED_RPC_METHODS, MAX_RPC_BATCH } from "../../rpc/router";
import { DOC_ASSETS } from "../assets";
import type { OperationGroup } from "../types";

const rpcCall = z.object({
  jsonrpc: z.literal("2.0").optional(),
  id: z.union([z.string(), z.number(), z.null()]).optional(),
  method: z.enum([...ALLOWED_RPC_METHODS] as [string, ...string[]]),
  params: z.array(z.unknown()).optional(),
});
const rpcAnswer = z.object({ jsonrpc: z.literal("2.0"), id: z.unknown(), result: z.unknown().optional(), error: z.object({ code: z.number(), message: z.string() }).optional() });

export const systemOperations: OperationGroup = {
  tag: "System",
  description: "Health, the app's run-time settings, the chain proxy, the local faucet and these docs.",
  operations: {
    "GET /api/health": {
      summary: "Whether the database, Redis, the chain and the indexer answer, with the indexer's lag",
      description: '503 only while the database does not answer; Redis, chain or indexer trouble is 200 with status "degraded" and the reasons in the message.',
      access: "public",
      data: healthSchema,
    },
    "GET /api/config": { summary: "The app's run-time settings: chain, contracts, explorer", access: "public", data: publicConfigSchema },
    "POST /api/rpc": {
      summary: "JSON-RPC to the chain, same-origin",
      description: `Reads, filters and signed transactions only; any other method is refused per call. At most ${MAX_RPC_BATCH} calls per batch. Answers are JSON-RPC, not the envelope.`,
      access: "public",
      body: { json: z.union([rpcCall, z.array(rpcCall).min(1).max(MAX_RPC_BATCH)]) },
      example: { jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] },
      raw: { contentTypes: ["application/json"], description: "The JSON-RPC answer, or one per call of a batch.", schema: z.union([rpcAnswer, z.array(rpcAnswer)]) },
    },
    "POST /api/dev/faucet": {
      summary: "Test ETH and test dollars for a wallet (local chain only)",
      description:
        "Exists only when the API runs against the local development chain. Pays from the faucet's own account (never the deployer's). Limited per funded address, per client address and by an hourly budget (429 with Retry-After); 503 when its account has run dry.",
      access: "public",
      example: { address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" },
    },
    "GET /api/docs": { summary: "This reference, as an interactive page", access: "public", raw: { contentTypes: ["text/html"], description: "The Swagger UI page." } },
    "GET /api/docs/openapi.json": { summary: "This reference as an OpenAPI 3 document", access: "public", raw: { contentTypes: ["application/json"], description: "The OpenAPI document." } },
    "GET /api/docs/assets/{file}": {
      summary: "The reference page's script and style",
      access: "public",
      params: { file: z.enum(Object.keys(DOC_ASSETS) as [string, ...string[]]) },
      raw: { contentTypes: ["text/javascript", "text/css"], description: "The file." },
    },
  },
};
