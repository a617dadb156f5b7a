import { sql } from "drizzle-orm";
import type { Db } from "#db/connect";
import { INDEXER_LOCK_NAMESPACE } from "#db/locks";

export interface IndexerHealth {
  /**
   * "ok": the mirror follows the chain; "behind": more than the allowed blocks behind; "not running": no mirror
   * yet, or (on Postgres) no indexer holds the writer lock; "not deployed": no contracts to follow yet;
   * "unknown": the database or the chain cannot tell.
   */
  status: "ok" | "behind" | "not running" | "not deployed" | "unknown";
  /** The last block the mirror holds. */
  blockNumber: number | null;
  head: number | null;
  /** Head less confirmations less the mirror's block, never below 0. */
  lagBlocks: number | null;
  /** When the mirror last moved. */
  lastIndexedAt: string | null;
}

interface Probe {
  db: Db;
  chainId: number;
  kind: string;
  /** Whether the database answered; no query is made when it did not. */
  database: boolean;
  deployed: boolean;
  head: number | null;
  confirmations: number;
  maxLag: number;
}

/**
 * One indexed read: the cursor row, and whether a session holds the indexer's writer lock (pg_locks shows an
 * advisory lock on two int4 keys as classid, objid with objsubid 2). PGlite runs the indexer in-process with
 * no lock, so there only the lag tells.
 */
export async function indexerHealth(probe: Probe): Promise<IndexerHealth> {
  const unknown: IndexerHealth = { status: "unknown", blockNumber: null, head: probe.head, lagBlocks: null, lastIndexedAt: null };
  if (!probe.database) return unknown;
  const result = await probe.db.execute(sql`
    select c.block_number, c.updated_at,
      exists (select 1 from pg_locks l where l.locktype = 'advisory' and l.classid = ${INDEXER_LOCK_NAMESPACE} and l.objid = ${probe.chainId}
              and l.objsubid = 2 and l.granted) as writer
    from chain_cursors c where c.chain_id = ${probe.chainId}`);
  const row = (result as unknown as { rows: { block_number: string | number; updated_at: string | Date; writer: boolean }[] }).rows[0];
  if (!row) return { ...unknown, status: probe.deployed ? "not running" : "not deployed" };
  const blockNumber = Number(row.block_number);
  const lastIndexedAt = new Date(row.updated_at).toISOString();
  const lagBlocks = probe.head === null ? null : Math.max(0, probe.head - probe.confirmations - blockNumber);
  const base = { blockNumber, head: probe.head, lagBlocks, lastIndexedAt };
  if (probe.kind === "postgres" && !row.writer) return { ...base, status: "not running" };
  if (lagBlocks === null) return { ...base, status: "unknown" };
  return { ...base, status: lagBlocks > probe.maxLag ? "behind" : "ok" };
}
