import { Router, type Request } from "express";
import { rateLimit, type RateLimitRule } from "../http/rateLimit";
import type { KeyValueStore } from "../kv/store";

/**
 * What a browser may ask the chain through us: reads, filters and already-signed transactions.
 * Nothing that signs with a node's keys or changes the node (eth_sendTransaction, anvil_*, evm_*, debug_*).
 */
export const ALLOWED_RPC_METHODS = new Set([
  "eth_chainId",
  "net_version",
  "web3_clientVersion",
  "eth_blockNumber",
  "eth_syncing",
  "eth_gasPrice",
  "eth_maxPriorityFeePerGas",
  "eth_blobBaseFee",
  "eth_feeHistory",
  "eth_getBalance",
  "eth_getCode",
  "eth_getStorageAt",
  "eth_getTransactionCount",
  "eth_call",
  "eth_estimateGas",
  "eth_createAccessList",
  "eth_getBlockByNumber",
  "eth_getBlockByHash",
  "eth_getBlockTransactionCountByNumber",
  "eth_getBlockTransactionCountByHash",
  "eth_getBlockReceipts",
  "eth_getTransactionByHash",
  "eth_getTransactionByBlockHashAndIndex",
  "eth_getTransactionByBlockNumberAndIndex",
  "eth_getTransactionReceipt",
  "eth_getLogs",
  "eth_newFilter",
  "eth_newBlockFilter",
  "eth_getFilterChanges",
  "eth_getFilterLogs",
  "eth_uninstallFilter",
  "eth_sendRawTransaction",
]);

export const MAX_RPC_BATCH = 50;

interface RpcRequest {
  jsonrpc?: string;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

const rpcError = (id: unknown, code: number, message: string) => ({ jsonrpc: "2.0", id: id ?? null, error: { code, message } });

/** A same-origin JSON-RPC proxy, so a browser that reaches only the app's origin still reaches the chain. */
export function createRpcRouter(deps: { rpcUrl: string; kv: KeyValueStore; limit: RateLimitRule }): Router {
  const router = Router();
  router.post("/", rateLimit(deps.kv, { name: "rpc", ...deps.limit }), async (req: Request, res) => {
    const body = req.body as RpcRequest | RpcRequest[] | undefined;
    const batch = Array.isArray(body);
    const calls = batch ? body : [body];
    if (!body || typeof body !== "object" || calls.length === 0) return res.status(400).json(rpcError(null, -32600, "Invalid request"));
    if (calls.length > MAX_RPC_BATCH) return res.status(400).json(rpcError(null, -32600, `At most ${MAX_RPC_BATCH} calls per batch`));

    const answers: unknown[] = new Array(calls.length);
    const forwarded: { index: number; call: RpcRequest }[] = [];
    calls.forEach((call, index) => {
      if (!call || typeof call !== "object" || typeof call.method !== "string") answers[index] = rpcError(call?.id, -32600, "Invalid request");
      else if (!ALLOWED_RPC_METHODS.has(call.method)) answers[index] = rpcError(call.id, -32601, `Method not allowed: ${call.method}`);
      else forwarded.push({ index, call: { jsonrpc: "2.0", id: call.id ?? null, method: call.method, params: call.params ?? [] } });
    });

    if (forwarded.length > 0) {
      let upstream: unknown;
      try {
        const response = await fetch(deps.rpcUrl, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(forwarded.map((f) => f.call)),
          signal: AbortSignal.timeout(20_000),
        });
        upstream = await response.json();
      } catch {
        upstream = null;
      }
      const results = Array.isArray(upstream) ? (upstream as { id?: unknown }[]) : [];
      forwarded.forEach(({ index, call }, position) => {
        // Nodes may reorder batch answers: match by id, falling back to position when ids repeat.
        const byId = results.filter((r) => r && r.id === call.id);
        answers[index] = (byId.length === 1 ? byId[0] : results[position]) ?? rpcError(call.id, -32603, "The chain is unreachable");
      });
    }
    return res.json(batch ? answers : answers[0]);
  });
  return router;
}
