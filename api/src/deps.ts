import type { PublicClient } from "viem";
import type { Logger } from "pino";
import type { Db } from "#db/connect";
import type { AppConfig } from "./config/env";
import type { KeyValueStore } from "./kv/store";
import type { RateLimits } from "./http/rateLimit";
import type { Publisher } from "./realtime/publisher";

/** What the composition root (createServices in app.ts) needs from the outside; tests build their own. */
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
  /** Where notifications are pushed; startServer passes socket.io's, without it the rows are still stored. */
  publisher?: Publisher;
}

type Operation<D> = (deps: D, ...args: never[]) => unknown;
/** An operation as its callers see it, with the deps already given. */
export type Bound<D, F extends Record<string, Operation<D>>> = {
  [K in keyof F]: F[K] extends (deps: D, ...args: infer A) => infer R ? (...args: A) => R : never;
};

/**
 * A service's named operations, each `op(deps, ...args)`, bound to one deps object: routers keep calling
 * `loans.approve(...)` while a reader jumps straight to the module's `approve` (docs/decisions.md "Services").
 */
export function bindDeps<D, F extends Record<string, Operation<D>>>(deps: D, operations: F): Bound<D, F> {
  return Object.fromEntries(Object.entries(operations).map(([name, op]) => [name, (...args: never[]) => op(deps, ...args)])) as Bound<D, F>;
}
