import type { PublicClient } from "viem";
import type { Logger } from "pino";
import type { Db } from "#db/connect";
import type { AppConfig } from "./config/env";
import type { KeyValueStore } from "./kv/store";
import type { RateLimits } from "./http/rateLimit";
import type { Notifier } from "./notifications/notifier";
import type { SocketSessions } from "./realtime/sessions";

/** What createApp needs from the outside; tests build their own. */
export interface AppDeps {
  config: AppConfig;
  db: Db;
  kv: KeyValueStore;
  /** Reads the chain (SIWE contract wallets, health); created from RPC_URL when omitted. */
  publicClient?: PublicClient;
  logger?: Logger;
  /** The clock, injectable so expiry can be tested without waiting. */
  now?: () => Date;
  rateLimits?: Partial<RateLimits>;
  /** Stores and pushes notifications; startServer passes one wired to socket.io, createApp alone stores only. */
  notifier?: Notifier;
  /** Ends the sockets a password change made stale; startServer passes socket.io's, createApp alone has none. */
  sessions?: SocketSessions;
}
