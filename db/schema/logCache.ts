import { bigint, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";

/**
 * The raw logs the indexer fetched, kept so the mirror can be rebuilt without asking the node again. Written in the
 * same transaction as the batch they belong to, pruned by reorg.ts, and never dropped by a rebuild of the mirror.
 */

const blockNo = (name: string) => bigint(name, { mode: "number" });

/**
 * The logs one address emitted in one block, as the node answered them. One row per block and address rather than per
 * log: a batch's cache then costs a few rows a block instead of one per log (less CPU for the backfill, measured). `logs`
 * are the logs in chain order, each `logIndex.txIndex.txHash.topics.data` (numbers in decimal, the topics joined: each
 * "0x" and 64 digits), separated by ";": texts an array literal carries unquoted.
 */
export const chainLogCache = pgTable(
  "chain_log_cache",
  {
    chainId: integer("chain_id").notNull(),
    blockNumber: blockNo("block_number").notNull(),
    address: text("address").notNull(),
    blockHash: text("block_hash").notNull(),
    /** Unix seconds, when the node gives it with the log (anvil does). */
    blockTime: blockNo("block_time"),
    logCount: integer("log_count").notNull(),
    logs: text("logs").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.blockNumber, t.address] })],
);

/**
 * The block ranges the cache holds every log of, for every address followed when the range was fetched (and, for a
 * collection first followed in it, its logs from the deploy block on). `source` names the chain and the fixed
 * contracts asked for: ranges fetched for another set say nothing about this one.
 */
export const chainLogRanges = pgTable(
  "chain_log_ranges",
  {
    chainId: integer("chain_id").notNull(),
    source: text("source").notNull(),
    fromBlock: blockNo("from_block").notNull(),
    toBlock: blockNo("to_block").notNull(),
    toHash: text("to_hash").notNull(),
    /** The hash of the block before `fromBlock`: where a rebuild from the cache starts its cursor. */
    parentHash: text("parent_hash").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.source, t.fromBlock] })],
);
