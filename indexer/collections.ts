import { eq } from "drizzle-orm";
import type { RpcLog } from "viem";
import type { Db } from "#db/connect";
import { chainCollections } from "#db/schema/chain";
import type { BlockRange } from "./blockRange";
import type { ChainEvent } from "./decode";
import type { LogSource } from "./sources";
import type { SyncState } from "./state";
import { ESCROW } from "./entities";

/**
 * Which ERC-721 collections the indexer follows, and the one place a newly allowed one is caught up (docs/decisions.md
 * "NFT collateral off-chain").
 *
 * Followed = every collection the escrow ever allowed (a chain_collections row, allowed or not since): a disallowed
 * collection may still have pieces in escrow, and following it on keeps its owners exact if it is allowed again, with
 * no second catch-up. The API's picker offers only allowed collections' pieces.
 *
 * The set lives in memory (SyncState) and is read again from chain_collections whenever memory may be ahead of the
 * database or behind it: at every start (sync.ts prepare), after a rollback (reorg.ts), on a rebuild (mirror.ts).
 */
export async function loadFollowedCollections(state: SyncState, db: Db): Promise<void> {
  const rows = await db.select({ collection: chainCollections.collection }).from(chainCollections).where(eq(chainCollections.chainId, state.chainId));
  state.followCollections(rows.map((row) => row.collection));
}

/**
 * The batch's events, plus the past of every collection a CollectionAllowed of the batch brings in for the first
 * time: its Transfer logs from the deploy block up to the batch's last block, merged in chain order so they run
 * through the handlers like any other (the logs of later ranges then include the collection). A past Transfer's
 * changes are journaled at its CollectionAllowed's block (`undoBlock`): a reorg that takes the allowance back takes
 * them with it, and the replay catches the collection up again. Nothing is written before the batch commits, and
 * a failed or abandoned batch leaves the followed set as it was, so a restart or a retry catches up once more.
 *
 * `logs` are the past logs fetched, for the cache. `added` says the followed set grew: a range fetched before this one was handled lacks the new collection's logs.
 * Null when the chain changed under the catch-up (the next poll finds the reorg).
 */
export async function catchUpCollections(state: SyncState, source: LogSource, events: ChainEvent[], range: BlockRange): Promise<{ events: ChainEvent[]; added: boolean; logs: RpcLog[] } | null> {
  const allowedAt = new Map<string, number>();
  for (const event of events) {
    if (event.contract !== ESCROW || event.name !== "CollectionAllowed") continue;
    const collection = event.args.collection as string;
    if (!allowedAt.has(collection) && !state.follows(collection)) allowedAt.set(collection, event.blockNumber);
  }
  if (allowedAt.size === 0) return { events, added: false, logs: [] };
  const before = state.collections;
  state.followCollections([...before, ...allowedAt.keys()]);
  try {
    const past: ChainEvent[] = [];
    const logs: RpcLog[] = [];
    for (const [collection, block] of allowedAt) {
      for (const log of await source.logsOf(collection, state.options.deployment.deployBlock, range.to)) {
        logs.push(log);
        const event = state.decoder.decode(log);
        if (!event) continue;
        if (event.blockNumber < block) event.undoBlock = block;
        past.push(event);
      }
    }
    // A chain is a chain of hashes: the range's last block unchanged, every block the logs came from is the batch's.
    if (!(await source.holds(range))) {
      state.followCollections(before);
      return null;
    }
    const merged = events.concat(past).sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
    return { events: merged, added: true, logs };
  } catch (error) {
    state.followCollections(before);
    throw error;
  }
}
