import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import type { Express } from "express";
import { Server as SocketServer } from "socket.io";
import type { Logger } from "pino";
import { createConfiguredLogger } from "./logger";
import type { PublicClient } from "viem";
import { connectDatabase, type DatabaseHandle } from "#db/connect";
import { ConfigError, loadConfig, type AppConfig } from "./config/env";
import { refuseLocalChainAccounts } from "./config/seededAccounts";
import { createKeyValueStore } from "./kv/connect";
import type { KeyValueStore } from "./kv/store";
import { createApp, createServices, type ApiApp, type Services } from "./app";
import type { RateLimits } from "./http/rateLimit";
import { startRealtime, type RealtimeOptions } from "./realtime";
import type { OutboxDelivery } from "./realtime/outbox";
import type { Notifier } from "./notifications/notifier";
import { socketPublisher } from "./realtime/publisher";
import { drainOnStop } from "./http/drain";

export interface StartServerOptions {
  /** Overrides PORT; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Defaults to loadConfig(process.env). */
  config?: AppConfig;
  /** An open database (e.g. shared with the indexer in one process); opened from the config and closed on close() otherwise. */
  database?: DatabaseHandle;
  kv?: KeyValueStore;
  /** Key prefix when the server opens the key-value store itself. */
  kvPrefix?: string;
  publicClient?: PublicClient;
  staticDir?: string;
  logger?: Logger;
  now?: () => Date;
  rateLimits?: Partial<RateLimits>;
  /** Socket.io adapter key and outbox delivery settings. */
  realtime?: RealtimeOptions;
}

export interface RunningServer {
  url: string;
  port: number;
  app: Express;
  httpServer: HttpServer;
  /** The socket.io attach point for real-time delivery. */
  io: SocketServer;
  config: AppConfig;
  database: DatabaseHandle;
  /** Shorthand for database.db (seedDemo takes it). */
  db: DatabaseHandle["db"];
  kv: KeyValueStore;
  /** How every service tells users something (api/src/notifications/notifier.ts). */
  notifier: Notifier;
  /** The indexer outbox delivery of this process (null when disabled). */
  outbox: OutboxDelivery | null;
  /** Every service of this process, as the composition root built them (tests drive the loan jobs through it). */
  services: Services;
  /** Every admin-only router with where it is mounted, so a test can walk their stacks. */
  adminRouters: ApiApp["adminRouters"];
  close(): Promise<void>;
}

/** API, socket.io and the built app on one port; close() stops them and whatever this call opened. */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const base = options.config ?? loadConfig();
  const config = options.port !== undefined ? { ...base, port: options.port } : base;
  const logger = options.logger ?? createConfiguredLogger(config);
  const ownsDatabase = !options.database;
  const database = options.database ?? (await connectDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  // Every way of starting the API passes here, so a local chain's accounts never serve real money.
  await refuseLocalChainAccounts(database.db, config).catch(async (error: unknown) => {
    if (ownsDatabase) await database.close();
    throw error;
  });
  const ownsKv = !options.kv;
  const kv = options.kv ?? (await createKeyValueStore({ redisUrl: config.redisUrl, prefix: options.kvPrefix ?? config.kvPrefix, logger }));

  // io exists before the services so the notifier pushes to it; it is attached to the HTTP server below.
  const io = new SocketServer({ cors: { origin: config.appOrigin, credentials: true }, serveClient: false });
  const services = createServices({
    config,
    db: database.db,
    kv,
    publicClient: options.publicClient,
    logger,
    now: options.now,
    rateLimits: options.rateLimits,
    publisher: socketPublisher(io),
  });
  const { tokens, users, notifications, publisher } = services;
  const realtime = await startRealtime({ io, config, database, tokens, users, notifications, publisher, logger, options: options.realtime });
  const { app, metrics, adminRouters } = createApp(services, { sessions: realtime.sessions, staticDir: options.staticDir, databaseKind: database.kind });
  const httpServer = createServer(app);
  io.attach(httpServer);
  metrics.watchSockets(io);
  const drain = drainOnStop(httpServer);

  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(config.port, options.host ?? "127.0.0.1", () => {
      httpServer.off("error", reject);
      resolve();
    });
  }).catch(async (error) => {
    await realtime.stopDelivery();
    await realtime.close();
    throw error;
  });
  const port = (httpServer.address() as AddressInfo).port;
  // Reconcile loans with the chain after any crash, then watch for repayments and defaults.
  const lifecycle = services.loanLifecycle;
  void lifecycle.startJobs();

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      // New connections are refused from here on; requests in flight are answered within the grace period.
      const drained = drain.stop(config.shutdownGraceMs);
      lifecycle.stop();
      await realtime.stopDelivery();
      // Ends the sockets, then waits for the HTTP server to drain like `drained`.
      await io.close();
      await drained;
      await realtime.close();
      if (ownsKv) await kv.close();
      if (ownsDatabase) await database.close();
    })());

  return { url: `http://localhost:${port}`, port, app, httpServer, io, config, database, db: database.db, kv, notifier: services.notifier, outbox: realtime.outbox, services, adminRouters, close };
}

// Run directly: `node --import tsx api/src/server.ts` serves the API from the environment.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const server = await startServer().catch((error: unknown) => {
    // A bad setting is the operator's to fix: the list of problems, not a stack trace.
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  });
  console.log(`LoanMint API listening on ${server.url}`);
  let stopping = false;
  const stop = () => {
    // A second signal means now, in-flight requests or not.
    if (stopping) process.exit(130);
    stopping = true;
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
