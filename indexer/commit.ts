import { sql, type SQL } from "drizzle-orm";
import type { Db } from "#db/connect";
import { chainBlocks, chainCursors, chainUndo } from "#db/schema/chain";
import { rowsOf, transactionFrom } from "./begin";
import { bulkInsertQuery, withWrites } from "./bulk";
import type { BlockRange } from "./blockRange";
import type { ChainEvent } from "./decode";
import { cacheWrites, type cacheRows } from "./logCache";
import { applyLoanChanges, loanStatesQuery, type LoanState } from "./loans";
import { OUTBOX_CHANNEL, type BatchInfo } from "./options";
import type { SyncState } from "./state";
import type { Batch } from "./store";

/** A batch whose handlers ran, with its one write statement built and waiting for its turn to commit. */
export interface PreparedBatch {
  to: number;
  toHash: string;
  batch: Batch;
  info: BatchInfo;
  finalized: number;
  statement: SQL;
  /** The outbox's wallets being looked up meanwhile, on another connection. */
  wallets?: Promise<void>;
  /** Whether no loan follows the batch's notes, asked meanwhile on another connection (noLoansFollow). */
  noLoans?: Promise<boolean>;
}

/**
 * The batch's one statement that writes every table and moves the cursor. Batches commit without waiting for
 * the WAL flush (docs/decisions.md): a Postgres crash can then only lose whole batches, cursor included, which
 * are fetched again; and nothing is pushed for a batch before it is durable, since the API's claim of its
 * outbox rows commits synchronously, which flushes the WAL up to and past the batch's commit.
 */
/** A batch's fetched logs for the log cache: the rows, the cache source they were fetched for and the range's parent. */
export interface CacheEntry {
  source: string;
  parentHash: string;
  rows: ReturnType<typeof cacheRows>;
}

export function prepareCommit(chainId: number, range: BlockRange, logCount: number, batch: Batch, events: ChainEvent[], finalized: number, cache: CacheEntry | null): PreparedBatch {
  // The hashes of unfinalised blocks are what reorg.ts compares with the chain's.
  const hashes = new Map<number, string>([[range.to, range.toHash]]);
  for (const event of events) if (event.blockNumber > finalized) hashes.set(event.blockNumber, event.blockHash);
  const info: BatchInfo = { from: range.from, to: range.to, logs: logCount, rows: 0, outbox: batch.outbox.length };
  const { queries, rows } = batch.writes();
  info.rows = rows;
  const blocks = [...hashes].map(([number, hash]) => ({ chainId, number, hash }));
  // The logs go in with the rows made of them: the cache never holds a batch the mirror lacks, nor the reverse.
  if (cache) queries.push(...cacheWrites(chainId, cache.source, { ...range, parentHash: cache.parentHash }, cache.rows));
  queries.push(
    bulkInsertQuery(chainBlocks, blocks, { target: ["chainId", "number"] }),
    // Disjoint from the rows above: those are the range's last block and unfinalised ones.
    sql`delete from ${chainBlocks} where ${chainBlocks.chainId} = ${chainId} and ${chainBlocks.number} <= ${Math.min(finalized, range.to - 1)}`,
    sql`delete from ${chainUndo} where ${chainUndo.chainId} = ${chainId} and ${chainUndo.blockNumber} <= ${finalized}`,
    sql`update ${chainCursors} set block_number = ${range.to}, block_hash = ${range.toHash}, updated_at = now() where ${chainCursors.chainId} = ${chainId}`,
  );
  // The loans this batch may change come back with the statement's answer: no read of its own in the transaction.
  const loanStates = loanStatesQuery(batch);
  const last = sql`select set_config('synchronous_commit', 'off', true)${loanStates ? sql`, ${loanStates} as loan_states` : sql``}`;
  return { to: range.to, toHash: range.toHash, batch, info, finalized, statement: withWrites(queries, last) };
}

/** One transaction: BEGIN, the statement, the loans' and outbox's rows when there are any, COMMIT. */
export async function commit(state: SyncState, db: Db, prepared: PreparedBatch): Promise<void> {
  const { batch, info, finalized } = prepared;
  const { options, chainId } = state;
  const rest = async (t: Db, rows: Record<string, unknown>[]) => {
    await applyLoanChanges(t, batch, finalized, rows[0]?.loan_states as LoanState[] | undefined);
    await prepared.wallets;
    await batch.writeOutbox(t, { channel: OUTBOX_CHANNEL, payload: String(chainId) });
    await options.beforeCommit?.(info);
  };
  if (db !== options.db) {
    // The writer's own Postgres connection: BEGIN goes with the statement (indexer/begin.ts), and COMMIT too when
    // nothing follows it (no outbox rows, no loan to move): the backfill of history is one round trip a batch.
    const alone = batch.outbox.length === 0 && !options.beforeCommit && (await prepared.noLoans);
    await transactionFrom(db, prepared.statement, alone ? null : rest);
  } else {
    // PGlite, one connection for everyone: its transaction keeps the API's queries out while it runs.
    await db.transaction(async (tx) => {
      await rest(tx as unknown as Db, rowsOf(await tx.execute(prepared.statement)));
    });
  }
  state.cursor = { ...state.cursor!, blockNumber: prepared.to, blockHash: prepared.toHash };
  state.cache.trim();
  await options.onBatch?.(info);
}
