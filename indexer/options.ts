import type { Db } from "#db/connect";
import type { Deployment } from "#domain/deployment";
import type { RangeLimits } from "./range";

/** Postgres LISTEN channel the API can wait on; the payload is the chain id. */
export const OUTBOX_CHANNEL = "chain_outbox";

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

export interface BatchInfo {
  from: number;
  to: number;
  logs: number;
  rows: number;
  outbox: number;
}

export interface IndexerOptions {
  db: Db;
  rpcUrl: string;
  deployment: Deployment;
  /** Blocks behind the head the indexer stays (0 on the local chain). */
  confirmations?: number;
  pollIntervalMs?: number;
  /** Blocks deeper than this below the head are final: no undo journal or block hash is kept for them. */
  finalityDepth?: number;
  range?: Partial<RangeLimits>;
  logger?: Logger;
  /** After each committed batch. */
  onBatch?(info: BatchInfo): void | Promise<void>;
  /** Inside each batch's transaction, after its rows are written: a throw here rolls the batch back. */
  beforeCommit?(info: BatchInfo): void | Promise<void>;
  /**
   * The node's WebSocket URL for new heads (indexer/heads.ts), which wake the follower as soon as a block is
   * mined; null = poll only. Default: the same port for a local node (anvil, Hardhat), else none.
   */
  headsUrl?: string | null;
}

export interface IndexerStatus {
  role: "starting" | "active" | "passive" | "stopped";
  blockNumber: number | null;
  head: number | null;
  lastError: string | null;
}

export interface Indexer {
  /** Stops polling, lets the batch in flight finish or roll back, and gives up the writer lock. */
  stop(): Promise<void>;
  /** Resolves once the mirror reaches the chain's head (less confirmations) as it is when called. */
  caughtUp(): Promise<void>;
  status(): IndexerStatus;
}
