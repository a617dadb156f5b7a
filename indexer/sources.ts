import { numberToHex, type RpcLog } from "viem";
import type { Db } from "#db/connect";
import type { BlockRange } from "./blockRange";
import type { Head } from "./heads";
import { cachedLogs } from "./logCache";
import { isRangeError } from "./range";
import type { SyncState } from "./state";

/** A range of blocks with every log of the followed contracts in it. */
export interface Fetched extends BlockRange {
  logs: RpcLog[];
}

/**
 * Where a backfill's logs come from: the node (what it answers then goes into the cache with each batch) or the
 * cache itself (a rebuild: nothing is asked of the node, nothing is written back).
 */
export interface LogSource {
  readonly cached: boolean;
  /** The range that starts at `from`; null when `parentHash` (the block before it) is no longer the chain's. */
  range(from: number, parentHash: string | null): Promise<Fetched | null>;
  /** One address's logs over a span of blocks: a newly followed collection's past. */
  logsOf(address: string, from: number, to: number): Promise<RpcLog[]>;
  /** Whether the range's last block is still the chain's (after a catch-up fetched meanwhile). */
  holds(range: BlockRange): Promise<boolean>;
}

/**
 * The node: ranges of as many blocks as the RPC allows, up to `target`. `finalized` blocks cannot change, so their
 * header and logs are asked for together; a head the node announced spares asking for its hash.
 */
export function nodeSource(state: SyncState, target: number, finalized: number, announced: Head | null): LogSource {
  return {
    cached: false,
    range: (from, parentHash) => fetchRange(state, from, target, parentHash, finalized, announced),
    logsOf: (address, from, to) => nodeLogsOf(state, address, from, to),
    holds: async (range) => (await state.blockHash(range.to)) === range.toHash,
  };
}

/**
 * The cache, in the chunks cachedCoverage() cut: the logs of the contracts followed at the moment each is asked for
 * (a collection followed from a batch on is in the next ones). The cache was pruned of every reorg it saw.
 */
export function cacheLogSource(state: SyncState, db: Db, chunks: BlockRange[]): LogSource {
  const byStart = new Map(chunks.map((chunk) => [chunk.from, chunk]));
  return {
    cached: true,
    async range(from) {
      const chunk = byStart.get(from);
      if (!chunk) throw new Error(`the log cache has no range starting at block ${from}`);
      const addresses = state.contracts.map((contract) => contract.address);
      return { ...chunk, logs: await cachedLogs(db, state.chainId, addresses, chunk.from, chunk.to) };
    },
    logsOf: (address, from, to) => cachedLogs(db, state.chainId, [address], from, to),
    holds: async () => true,
  };
}

async function fetchRange(state: SyncState, from: number, target: number, parentHash: string | null, finalized: number, announced: Head | null): Promise<Fetched | null> {
  const { range } = state;
  let known = announced;
  for (;;) {
    const to = Math.min(target, from + range.span - 1);
    // The node's own answer, unformatted: the decoder reads the hex quantities it needs, and formatting
    // every log into bigints first (what getLogs does) was a good part of the fetch's time.
    const getLogs = () => state.logs.getLogs({ address: state.contracts.map((contract) => contract.address), fromBlock: numberToHex(from), toBlock: numberToHex(to) });
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

/** One address's logs over a span of blocks, as many blocks a call as the RPC allows (the backfill's adaptive span). */
async function nodeLogsOf(state: SyncState, address: string, from: number, to: number): Promise<RpcLog[]> {
  const logs: RpcLog[] = [];
  for (let start = from; start <= to;) {
    const end = Math.min(to, start + state.range.span - 1);
    let answer: RpcLog[];
    try {
      answer = await state.logs.getLogs({ address: [address], fromBlock: numberToHex(start), toBlock: numberToHex(end) });
    } catch (error) {
      if (isRangeError(error) && state.range.shrink(error)) continue;
      throw error;
    }
    for (const log of answer) logs.push(log);
    state.range.grow(answer.length);
    start = end + 1;
  }
  return logs;
}
