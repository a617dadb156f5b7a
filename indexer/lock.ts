import type { Pool, PoolClient } from "pg";
import type { Db } from "#db/connect";
import * as schema from "#db/schema";
import { INDEXER_LOCK_NAMESPACE } from "#db/locks";

/** The session that holds the writer lock also does every write, so losing it stops the writes too. */
export interface Writer {
  db: Db;
  /** True once the session that held the lock broke. */
  lost(): boolean;
  release(): Promise<void>;
}

function poolOf(db: Db): Pool | null {
  const client = (db as unknown as { $client?: unknown }).$client as Partial<Pool> | undefined;
  return client && typeof client.connect === "function" && "totalCount" in client ? (client as Pool) : null;
}

/**
 * Takes the indexer's lock for one chain, or answers null when another indexer holds it. PGlite is one
 * connection in one process: there the lock trivially holds and the shared database is the writer.
 */
export async function tryAcquireWriter(db: Db, chainId: number): Promise<Writer | null> {
  const pool = poolOf(db);
  if (!pool) return { db, lost: () => false, release: async () => {} };
  const client: PoolClient = await pool.connect();
  let broken = false;
  const onError = () => (broken = true);
  client.on("error", onError);
  try {
    const { rows } = await client.query<{ locked: boolean }>("select pg_try_advisory_lock($1, $2) as locked", [INDEXER_LOCK_NAMESPACE, chainId]);
    if (!rows[0]?.locked) {
      client.off("error", onError);
      client.release();
      return null;
    }
  } catch (error) {
    client.off("error", onError);
    client.release(true);
    throw error;
  }
  const { drizzle } = await import("drizzle-orm/node-postgres");
  return {
    db: drizzle(client, { schema }) as unknown as Db,
    lost: () => broken,
    async release() {
      client.off("error", onError);
      if (broken) return client.release(true);
      try {
        await client.query("select pg_advisory_unlock($1, $2)", [INDEXER_LOCK_NAMESPACE, chainId]);
        client.release();
      } catch {
        client.release(true);
      }
    },
  };
}
