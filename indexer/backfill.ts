import type { RpcLog } from "viem";
import type { Db } from "#db/connect";
import { catchUpCollections } from "./collections";
import { commit, prepareCommit } from "./commit";
import { makeContext } from "./context";
import type { ChainEvent } from "./decode";
import { ENTITY_DEFS } from "./entities";
import { cacheRows, cacheSource } from "./logCache";
import { noLoansFollow } from "./loans";
import type { Fetched, LogSource } from "./sources";
import type { SyncState } from "./state";
import { Batch } from "./store";

/** Where a backfill runs to, where its logs come from, and which blocks are final. */
export interface BackfillPlan {
  source: LogSource;
  /** The last block to index: the head less the confirmations. */
  target: number;
  /** Blocks up to here cannot change: no undo journal or block hash is kept for them. */
  finalized: number;
}

/**
 * Indexes the blocks after the cursor up to the target. A three-stage pipeline: the next range is fetched (the
 * node's work) while this one runs through the handlers (ours) while the previous one commits (Postgres's).
 * Batches still commit one by one, in order; `committed` is called after each.
 */
export async function backfill(state: SyncState, db: Db, { source, target, finalized }: BackfillPlan, committed: () => void): Promise<void> {
  // Reads use the pool: on Postgres other connections than the writer's, on PGlite its one connection.
  const reader = state.options.db;
  let parentHash = state.cursor!.blockHash;
  let next: Promise<Fetched | null> | null = source.range(state.cursor!.blockNumber + 1, null);
  let committing: Promise<void> | null = null;
  try {
    while (next !== null) {
      const fetched: Fetched | null = await next;
      if (!fetched) break; // the parent changed under us: the next step finds the reorg
      const fetchNext = () => {
        next = fetched.to < target && !state.stopped ? source.range(fetched.to + 1, fetched.toHash) : null;
        next?.catch(() => {});
      };
      fetchNext();
      const logCount = fetched.logs.length;
      const fetchedLogs = source.cached ? [] : fetched.logs;
      const caught = await catchUpCollections(state, source, decode(state, fetched.logs), fetched);
      fetched.logs = []; // the node's answer is let go once decoded (less for the GC to copy while we work)
      if (!caught) break; // the chain changed under the catch-up: the next step finds the reorg
      // A collection followed from this batch on: the range fetched meanwhile lacks its logs, so it is fetched again.
      if (caught.added) fetchNext();
      const { events } = caught;
      const batch = new Batch(state.cache, state.chainId, finalized, state.cursor!.silentUntil);
      // Reads see what the previous batch committed; on Postgres they go to other connections, side by side.
      if (batch.needsDatabase(ENTITY_DEFS, events)) await committing;
      await batch.load(reader, ENTITY_DEFS, events);
      runHandlers(state, batch, events);
      batch.seal();
      // The statement is built while the previous batch commits: our CPU and Postgres's work side by side.
      const cache = source.cached ? null : { source: cacheSource(state), parentHash, rows: cacheRows(state.chainId, concat(fetchedLogs, caught.logs)) };
      const prepared = prepareCommit(state.chainId, fetched, logCount, batch, events, finalized, cache);
      parentHash = fetched.toHash;
      if (reader !== db) {
        prepared.wallets = batch.resolveWallets(reader);
        prepared.noLoans = noLoansFollow(reader, batch);
        // Awaited in the commit; a failure there fails the batch.
        prepared.wallets.catch(() => {});
        prepared.noLoans.catch(() => {});
      }
      await committing;
      if (state.stopped) {
        // The batch that just committed is the last: this one is fetched again at the next start.
        state.cache.clear(false); // its handlers ran ahead of what was committed
        break;
      }
      committing = commit(state, db, prepared).then(committed);
      committing.catch(() => {});
    }
    await committing;
  } catch (error) {
    await next?.catch(() => {});
    await committing?.catch(() => {});
    state.cache.clear(false); // it may be ahead of what was committed
    throw error;
  }
}

const concat = (a: RpcLog[], b: RpcLog[]) => (b.length === 0 ? a : a.concat(b));

function decode(state: SyncState, logs: RpcLog[]): ChainEvent[] {
  const events: ChainEvent[] = [];
  for (const log of logs) {
    const event = state.decoder.decode(log);
    if (event) events.push(event);
  }
  return events;
}

function runHandlers(state: SyncState, batch: Batch, events: ChainEvent[]): void {
  let current: ChainEvent = events[0];
  const ctx = makeContext(batch, state.chainId, state.addresses, () => current);
  for (const event of events) {
    current = event;
    state.handlersByContract.get(event.contract)?.[event.name]?.(event, ctx);
  }
}
