import http from "node:http";
import https from "node:https";
import type { RpcLog } from "viem";

/**
 * eth_getLogs over node:http with kept-alive connections. A backfill's answers run to megabytes, and reading them
 * through fetch (web streams, then a text decoder) cost about half as much CPU again as node:http's buffers; the
 * other calls, small, stay with viem.
 */

export interface LogsFilter {
  address: string[];
  fromBlock: string;
  toBlock: string;
}

/** What the node said when it refused; `details` is what isRangeError() reads (e.g. "query returned more than 10000 results"). */
export class LogsRpcError extends Error {
  constructor(
    readonly code: number | null,
    readonly details: string,
  ) {
    super(`eth_getLogs failed: ${details}`);
    this.name = "LogsRpcError";
  }
}

const RETRY_DELAYS_MS = [150, 450];
/** Answers worth asking again: the node or a proxy in front of it was busy or restarting. */
const RETRY_STATUS = new Set([408, 429, 500, 502, 503, 504]);

export interface LogsClient {
  getLogs(filter: LogsFilter): Promise<RpcLog[]>;
  close(): void;
}

export function createLogsClient(rpcUrl: string, timeoutMs = 30_000): LogsClient {
  const url = new URL(rpcUrl);
  const secure = url.protocol === "https:";
  const agent = secure ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  let id = 0;

  function once(filter: LogsFilter): Promise<RpcLog[]> {
    const body = JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "eth_getLogs", params: [filter] });
    return new Promise((resolve, reject) => {
      const request = (secure ? https : http).request(
        url,
        { method: "POST", agent, timeout: timeoutMs, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("error", reject);
          response.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            let answer: { result?: RpcLog[]; error?: { code?: number; message?: string; data?: unknown } };
            try {
              answer = JSON.parse(text);
            } catch {
              // A proxy's error page, or a body cut short.
              const error = new LogsRpcError(null, `HTTP ${response.statusCode}: ${text.slice(0, 200)}`);
              return reject(Object.assign(error, { status: response.statusCode }));
            }
            if (answer.error) {
              const data = typeof answer.error.data === "string" ? ` (${answer.error.data})` : "";
              return reject(new LogsRpcError(answer.error.code ?? null, `${answer.error.message ?? "unknown error"}${data}`));
            }
            if ((response.statusCode ?? 200) >= 400 || !Array.isArray(answer.result)) {
              return reject(Object.assign(new LogsRpcError(null, `HTTP ${response.statusCode}: ${text.slice(0, 200)}`), { status: response.statusCode }));
            }
            resolve(answer.result);
          });
        },
      );
      request.on("timeout", () => request.destroy(new Error(`eth_getLogs timed out after ${timeoutMs} ms`)));
      request.on("error", reject);
      request.end(body);
    });
  }

  return {
    async getLogs(filter) {
      for (let attempt = 0; ; attempt++) {
        try {
          return await once(filter);
        } catch (error) {
          // A refusal is the node's answer (the range shrinks on it); a lost connection or a busy proxy is asked again.
          const status = (error as { status?: number }).status;
          const retry = !(error instanceof LogsRpcError) || (status !== undefined && RETRY_STATUS.has(status));
          if (!retry || attempt >= RETRY_DELAYS_MS.length) throw error;
          await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[attempt]));
        }
      }
    },
    close() {
      agent.destroy();
    },
  };
}
