import { sql } from "drizzle-orm";
import type { Db } from "#db/connect";

/** How long a delivered outbox row is kept: long enough to look into a day's deliveries, short enough to stay small. */
export const OUTBOX_RETENTION_MS = 24 * 60 * 60_000;
/** How often a delivering process prunes. */
export const OUTBOX_PRUNE_INTERVAL_MS = 10 * 60_000;
/** Rows per delete statement, so one prune never holds many locks or a long transaction. */
const PRUNE_BATCH = 5_000;

const rowsOf = <T>(result: unknown): T[] => (result as { rows?: T[] }).rows ?? (result as T[]);

/**
 * Deletes delivered outbox rows (chain_outbox and their outbox_deliveries) delivered before `before`. A row of a
 * block that is not final yet stays whatever its age: a reorg may still need it to write its correction, and the
 * delivery reads the original's delivery row to know whether the correction is to be sent and which stored
 * notifications to withdraw. A chain's blocks are final below the oldest hash the indexer still keeps
 * (chain_blocks). Undelivered rows are never pruned. Answers how many rows went.
 */
export async function pruneOutbox(db: Db, before: Date): Promise<number> {
  let pruned = 0;
  for (;;) {
    const gone = rowsOf<{ outbox_id: string }>(
      await db.execute(sql`
        with doomed as (
          select d.outbox_id
          from outbox_deliveries d join chain_outbox o on o.id = d.outbox_id
          where d.delivered_at < ${before.toISOString()}::timestamptz
            and o.block_number < coalesce((select min(b.number) from chain_blocks b where b.chain_id = o.chain_id), ${Number.MAX_SAFE_INTEGER}::bigint)
          order by d.outbox_id
          limit ${PRUNE_BATCH}
        ),
        outbox as (delete from chain_outbox where id in (select outbox_id from doomed))
        delete from outbox_deliveries where outbox_id in (select outbox_id from doomed)
        returning outbox_id`),
    );
    pruned += gone.length;
    if (gone.length < PRUNE_BATCH) return pruned;
  }
}
