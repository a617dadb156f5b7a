import { and, asc, eq, gt, inArray, sql, type SQL } from "drizzle-orm";
import { numberToHex, type RpcLog } from "viem";
import type { Db } from "#db/connect";
import { chainLogCache, chainLogRanges } from "#db/schema/logCache";
import { bulkInsertQuery } from "./bulk";
import type { BlockRange } from "./blockRange";
import type { SyncState } from "./state";

/**
 * The local cache of raw logs (db/schema/logCache.ts): what a batch fetched goes in with the batch's own statement,
 * a rebuild reads it back instead of asking the node, a reorg prunes it (reorg.ts).
 */

/** A fetched range of the cache: its blocks, and the hash of the block before it. */
export interface CachedRange extends BlockRange {
  parentHash: string;
}

/** What the cache's ranges were fetched for: this chain and the deployment's own contracts from its deploy block. */
export function cacheSource(state: SyncState): string {
  const { deployment } = state.options;
  return [deployment.genesisHash, deployment.deployBlock, ...state.fixed.map((contract) => contract.address)].join(":").toLowerCase();
}

type CacheRow = typeof chainLogCache.$inferInsert;

/** The node's logs as cache rows: one per block and address. */
export function cacheRows(chainId: number, logs: RpcLog[]): CacheRow[] {
  const rows = new Map<string, CacheRow & { parts: string[] }>();
  for (const log of logs) {
    const address = log.address.toLowerCase();
    const key = `${log.blockHash}${address}`;
    let row = rows.get(key);
    if (!row) {
      const time = (log as { blockTimestamp?: string | null }).blockTimestamp;
      row = { chainId, blockNumber: Number(log.blockNumber), address, blockHash: log.blockHash!, blockTime: time ? Number(time) : null, logCount: 0, logs: "", parts: [] };
      rows.set(key, row);
    }
    row.parts.push(`${Number(log.logIndex)}.${Number(log.transactionIndex)}.${log.transactionHash}.${log.topics.join("")}.${log.data}`);
  }
  return [...rows.values()].map(({ parts, ...row }) => ({ ...row, logCount: parts.length, logs: parts.join(";") }));
}

/**
 * The writes that put a batch's logs and its range in the cache, for the batch's own statement. Logs already there
 * (a collection's past fetched again after a rollback that kept its blocks) are the same logs: they are left as they are.
 */
export function cacheWrites(chainId: number, source: string, range: CachedRange, rows: CacheRow[]): SQL[] {
  const writes: SQL[] = [];
  if (rows.length > 0) writes.push(bulkInsertQuery(chainLogCache, rows, { doNothing: true }));
  // A range that continues the previous one (its parent is that range's last block) extends it: following the head
  // a block at a time would otherwise add a row a block.
  const previous = sql`(select ${chainLogRanges.fromBlock} from ${chainLogRanges} where ${chainLogRanges.chainId} = ${chainId}
    and ${chainLogRanges.source} = ${source} and ${chainLogRanges.toBlock} = ${range.from - 1} and ${chainLogRanges.toHash} = ${range.parentHash})`;
  writes.push(sql`insert into ${chainLogRanges} (chain_id, source, from_block, to_block, to_hash, parent_hash)
    values (${chainId}, ${source}, coalesce(${previous}, ${range.from}), ${range.to}, ${range.toHash}, ${range.parentHash})
    on conflict (chain_id, source, from_block) do update set to_block = excluded.to_block, to_hash = excluded.to_hash`);
  return writes;
}

/** The cached logs of `addresses` in blocks `from`..`to`, in chain order, shaped as the node answers them. */
export async function cachedLogs(db: Db, chainId: number, addresses: string[], from: number, to: number): Promise<RpcLog[]> {
  const rows = await db
    .select()
    .from(chainLogCache)
    .where(
      and(
        eq(chainLogCache.chainId, chainId),
        sql`${chainLogCache.blockNumber} between ${from} and ${to}`,
        inArray(
          chainLogCache.address,
          addresses.map((address) => address.toLowerCase()),
        ),
      ),
    )
    .orderBy(asc(chainLogCache.blockNumber));
  const logs: RpcLog[] = [];
  let blockStart = 0;
  for (let i = 0; i < rows.length; i++) {
    if (i > 0 && rows[i].blockNumber !== rows[i - 1].blockNumber) {
      sortBlock(logs, blockStart);
      blockStart = logs.length;
    }
    for (const text of rows[i].logs.split(";")) logs.push(toRpcLog(rows[i], text));
  }
  sortBlock(logs, blockStart);
  return logs;
}

/** One block's logs of several addresses, interleaved again by their index. */
function sortBlock(logs: RpcLog[], start: number): void {
  if (logs.length - start < 2) return;
  const block = logs.splice(start).sort((a, b) => Number(a.logIndex) - Number(b.logIndex));
  for (const log of block) logs.push(log);
}

function toRpcLog(row: typeof chainLogCache.$inferSelect, text: string): RpcLog {
  const [logIndex, txIndex, txHash, joined, data] = text.split(".");
  const topics: string[] = [];
  for (let at = 0; at < joined.length; at += 66) topics.push(joined.slice(at, at + 66));
  const log = {
    address: row.address,
    topics,
    data,
    blockNumber: numberToHex(row.blockNumber),
    blockHash: row.blockHash,
    transactionHash: txHash,
    transactionIndex: numberToHex(Number(txIndex)),
    logIndex: numberToHex(Number(logIndex)),
    removed: false,
  };
  return (row.blockTime === null ? log : { ...log, blockTimestamp: numberToHex(row.blockTime) }) as unknown as RpcLog;
}

/** Logs a rebuild hands the handlers at once, about: big enough to amortise a commit, small enough to hold. */
const CHUNK_LOGS = 5_000;

/**
 * How the cache covers the chain from the deploy block on, in chunks to replay: the ranges of this source that
 * follow each other without a gap from the deploy block, cut where about CHUNK_LOGS logs have gathered (at a block
 * with logs, whose hash the cache knows). Null when the cache holds nothing from the deploy block.
 */
export async function cachedCoverage(db: Db, state: SyncState): Promise<{ parentHash: string; chunks: BlockRange[] } | null> {
  const { deployBlock } = state.options.deployment;
  const ranges = await db
    .select()
    .from(chainLogRanges)
    .where(and(eq(chainLogRanges.chainId, state.chainId), eq(chainLogRanges.source, cacheSource(state))))
    .orderBy(asc(chainLogRanges.fromBlock));
  const first = ranges.find((range) => range.fromBlock === deployBlock);
  if (!first) return null;
  let end = first.toBlock;
  let endHash = first.toHash;
  for (const range of ranges) {
    if (range.fromBlock > end + 1) break;
    if (range.toBlock > end) [end, endHash] = [range.toBlock, range.toHash];
  }
  const blocks = await db
    .select({ number: chainLogCache.blockNumber, hash: sql<string>`min(${chainLogCache.blockHash})`, logs: sql<number>`sum(${chainLogCache.logCount})::int` })
    .from(chainLogCache)
    .where(and(eq(chainLogCache.chainId, state.chainId), sql`${chainLogCache.blockNumber} between ${deployBlock} and ${end}`))
    .groupBy(chainLogCache.blockNumber)
    .orderBy(asc(chainLogCache.blockNumber));
  const chunks: BlockRange[] = [];
  let from = deployBlock;
  let gathered = 0;
  for (const block of blocks) {
    gathered += block.logs;
    if (gathered < CHUNK_LOGS || block.number >= end) continue;
    chunks.push({ from, to: block.number, toHash: block.hash });
    from = block.number + 1;
    gathered = 0;
  }
  chunks.push({ from, to: end, toHash: endHash });
  return { parentHash: first.parentHash, chunks };
}

/** Forgets the cache above `ancestor` (a reorg replaced those blocks); ranges reaching above it end at it. */
export async function pruneCache(db: Db, chainId: number, ancestor: { number: number; hash: string }): Promise<void> {
  await db.delete(chainLogCache).where(and(eq(chainLogCache.chainId, chainId), gt(chainLogCache.blockNumber, ancestor.number)));
  await db.delete(chainLogRanges).where(and(eq(chainLogRanges.chainId, chainId), gt(chainLogRanges.fromBlock, ancestor.number)));
  await db
    .update(chainLogRanges)
    .set({ toBlock: ancestor.number, toHash: ancestor.hash })
    .where(and(eq(chainLogRanges.chainId, chainId), gt(chainLogRanges.toBlock, ancestor.number)));
}

/** Forgets the whole cache of a chain that is not the one it was fetched from any more (reset, or reorged past it). */
export async function dropCache(db: Db, chainId: number): Promise<void> {
  await db.delete(chainLogCache).where(eq(chainLogCache.chainId, chainId));
  await db.delete(chainLogRanges).where(eq(chainLogRanges.chainId, chainId));
}
