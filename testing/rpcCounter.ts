import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A JSON-RPC relay in front of a node that counts what passes through it (each call of a batch counts). */
export interface RpcCounter {
  url: string;
  /** Calls relayed so far, by method. */
  calls(): Record<string, number>;
  /** The params of every call of `method` relayed so far. */
  paramsOf(method: string): unknown[][];
  total(): number;
  close(): Promise<void>;
}

export async function startRpcCounter(target: string): Promise<RpcCounter> {
  const calls: Record<string, number> = {};
  const params = new Map<string, unknown[][]>();
  async function relay(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    try {
      const parsed = JSON.parse(body.toString("utf8")) as { method?: string; params?: unknown[] } | { method?: string; params?: unknown[] }[];
      for (const call of Array.isArray(parsed) ? parsed : [parsed]) {
        const method = call.method ?? "?";
        calls[method] = (calls[method] ?? 0) + 1;
        params.set(method, [...(params.get(method) ?? []), call.params ?? []]);
      }
    } catch {
      calls["?"] = (calls["?"] ?? 0) + 1;
    }
    try {
      const answer = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body });
      res.writeHead(answer.status, { "content-type": "application/json" });
      res.end(Buffer.from(await answer.arrayBuffer()));
    } catch {
      req.socket.destroy();
    }
  }
  // Every failure is answered inside relay (the socket is dropped), so nothing is left to await here.
  const server = createServer((req, res) => void relay(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls: () => ({ ...calls }),
    paramsOf: (method) => [...(params.get(method) ?? [])],
    total: () => Object.values(calls).reduce((sum, n) => sum + n, 0),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
