import type { RequestHandler } from "express";
import { collectDefaultMetrics, Gauge, Registry } from "prom-client";
import type { Server as SocketServer } from "socket.io";
import { metricsAccess } from "./access";
import { httpMetrics } from "./http";
import { indexerLagMetrics, type IndexerLagDeps } from "./indexerLag";

export interface Metrics {
  /** This server's own metrics (requests, sockets, indexer lag); tests start many servers in one process. */
  registry: Registry;
  /** Times and counts every request: mount it before the routers. */
  http: RequestHandler;
  /** GET /metrics, in Prometheus's text format, behind metricsAccess. */
  endpoint: RequestHandler[];
  /** Reports the socket.io connections of this server from now on. */
  watchSockets(io: SocketServer): void;
}

export function createMetrics(deps: IndexerLagDeps & { token?: string }): Metrics {
  const registry = new Registry();
  let io: SocketServer | null = null;
  new Gauge({
    name: "loanmint_socket_connections",
    help: "Signed-in socket.io connections open on this process",
    registers: [registry],
    collect() {
      this.set(io ? io.of("/").sockets.size : 0);
    },
  });
  indexerLagMetrics(registry, deps);
  const serve: RequestHandler = async (_req, res) => {
    const [process, own] = await Promise.all([processRegistry().metrics(), registry.metrics()]);
    res.setHeader("Content-Type", registry.contentType);
    res.setHeader("Cache-Control", "no-store");
    res.send(`${process}\n${own}`);
  };
  return {
    registry,
    http: httpMetrics(registry),
    endpoint: [metricsAccess(deps.token), serve],
    watchSockets(server) {
      io = server;
    },
  };
}

let shared: Registry | null = null;

/** CPU, memory, event loop and GC belong to the process, not to a server: collected once, in a registry of their own. */
function processRegistry(): Registry {
  if (!shared) {
    shared = new Registry();
    collectDefaultMetrics({ register: shared });
  }
  return shared;
}
