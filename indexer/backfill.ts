import { numberToHex, type RpcLog } from "viem";
import type { Db } from "#db/connect";
import { catchUpCollections } from "./collections";
import { commit, prepareCommit, type BlockRange } from "./commit";
import { makeContext } from "./context";
import type { ChainEvent } from "./decode";
import { ENTITY_DEFS } from "./entities";
import type { Head } from "./heads";
import { noLoansFollow } from "./loans";
import { isRangeError } from "./range";
import type { SyncState } from "./state";
import { Batch } from "./store";

interface Fetched extends BlockRange {
  logs: RpcLog[];
}

/** Where a backfill runs to, and what it knows of the chain when it starts. */
export interface BackfillTarget {
  head: number;
  /** The last block to index: the head less the confirmations. */
  target: number;
  /** The newest head the node announced, whose hash spares a round trip when it ends a range. */
  announced: Head | null;
}

/**
 * Indexes the blocks after the cursor up to the target. A three-stage pipeline: the next range is fetched (the
 * node's work) while this one runs through the handlers (ours) while the previous one commits (Postgres's).
 * Batches still commit one by one, in order; `committed` is called after each.
 */
export async function backfill(state: SyncState, db: Db, { head, target, announced }: BackfillTarget, committed: () => void): Promise<void> {
  const finalized = head - state.finalityDepth;
  // Reads use the pool: on Postgres other connections than the writer's, on PGlite its one connection.
  const reader = state.options.db;
  let next: Promise<Fetched | null> | null = fetchRange(state, state.cursor!.blockNumber + 1, target, null, finalized, announced);
  let committing: Promise<void> | null = null;
  try {
    while (next !== null) {
      const fetched: Fetched | null = await next;
      if (!fetched) break; // the parent changed under us: the next step finds the reorg
      const fetchNext = () => {
        next = fetched.to < target && !state.stopped ? fetchRange(state, fetched.to + 1, target, fetched.toHash, finalized, announced) : null;
        next?.catch(() => {});
      };
      fetchNext();
      const logCount = fetched.logs.length;
      const caught = await catchUpCollections(state, decode(state, fetched.logs), fetched);
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
      const prepared = prepareCommit(state.chainId, fetched, logCount, batch, events, finalized);
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

/**
 * The logs of `from` up to at most `target`, as many blocks as the RPC allows, with the last block's hash. Null
 * when `parentHash` (the previous range's last block) is no longer the chain's: a reorg, for the next poll.
 */
async function fetchRange(
  state: SyncState,
  from: number,
  target: number,
  parentHash: string | null,
  finalized: number,
  announced: Head | null,
): Promise<Fetched | null> {
  const { range } = state;
  let known = announced;
  for (;;) {
    const to = Math.min(target, from + range.span - 1);
    // The node's own answer, unformatted: the decoder reads the hex quantities it needs, and formatting
    // every log into bigints first (what getLogs does) was a good part of the fetch's time.
    const getLogs = () =>
      state.logs.getLogs({ address: state.contracts.map((contract) => contract.address), fromBlock: numberToHex(from), toBlock: numberToHex(to) });
    let toHash: string;
    let logs: RpcLog[];
    try {
      if (to <= finalized) {
        // Final blocks cannot change: header and logs may be asked for together.
        [toHash, logs] = await Promise.all([state.blockHash(to), getLogs()]);
      } else {
        // The range's last header before its logs: a reorg in between shows up as a mismatch next poll.
        // A head the node announced before this poll is such a header already.
        toHash = known?.number === to ? known.hash : await state.blockHash(to);
        if (parentHash && from - 1 > finalized && (await state.blockHash(from - 1)) !== parentHash) return null;
        logs = await getLogs();
      }
    } catch (error) {
      if (isRangeError(error) && range.shrink(error)) {
        state.logger.warn(`indexer: the RPC refused ${to - from + 1} blocks; asking for ${range.span}`);
        continue;
      }
      throw error;
    }
    if (logs.some((log) => Number(log.blockNumber) === to && log.blockHash !== toHash)) {
      known = null; // the announced block was replaced: ask the node
      continue;
    }
    range.grow(logs.length);
    return { from, to, toHash, logs };
  }
}

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
