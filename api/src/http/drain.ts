import type { Server, ServerResponse } from "node:http";

export interface Drain {
  /**
   * Refuses new connections at once; requests in flight are answered, each on a connection that then closes.
   * Resolves when the last connection is gone, or cuts the rest after `graceMs`.
   */
  stop(graceMs: number): Promise<void>;
}

/**
 * A graceful stop for an HTTP server. server.close() alone ends idle keep-alive connections, but a connection
 * busy with a request stays open after its answer, until the client's keep-alive timeout, holding the stop.
 */
export function drainOnStop(server: Server): Drain {
  const inFlight = new Set<ServerResponse>();
  let stopping = false;
  server.on("request", (_req, res: ServerResponse) => {
    if (stopping) res.setHeader("Connection", "close");
    inFlight.add(res);
    res.once("close", () => inFlight.delete(res));
  });
  return {
    stop(graceMs) {
      stopping = true;
      const drained = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const res of inFlight) if (!res.headersSent) res.setHeader("Connection", "close");
      const forced = setTimeout(() => server.closeAllConnections(), graceMs);
      forced.unref();
      return drained.finally(() => clearTimeout(forced));
    },
  };
}
