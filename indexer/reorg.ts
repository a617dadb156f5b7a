import { and, eq, gt, lte, sql } from "drizzle-orm";
import type { Db } from "#db/connect";
import { chainBlocks, chainCursors, chainOutbox, chainUndo } from "#db/schema/chain";
import { loadFollowedCollections } from "./collections";
import { dropCache, pruneCache } from "./logCache";
import { LOAN_UNDO_TABLE, undoLoanChange } from "./loans";
import { LOG_TABLES, resetMirror } from "./mirror";
import { OUTBOX_CHANNEL } from "./options";
import { ChainMismatchError, type SyncState } from "./state";

/** Derived tables' names in the undo journal (the loans' own journal rows are undone by indexer/loans.ts). */
const DERIVED_NAMES = new Set(["chain_notes", "chain_listings", "chain_vault_positions", "chain_credits", "chain_order_counters", "chain_collections", "chain_collateral", "chain_nft_owners"]);

interface Block {
  number: number;
  hash: string;
}

/**
 * Reorgs are handled here and only here: hashes of unfinalised blocks are kept (commit.ts); when the chain
 * disagrees with the cursor (sync.ts notices), this finds the newest kept block the chain still has and rolls
 * the mirror back to it: log rows deleted, derived rows restored from the undo journal, pushed events
 * corrected, the log cache pruned. The blocks above it are then replayed by the next backfill. Deeper than the kept blocks, the
 * mirror starts afresh.
 */
export async function undoReorg(state: SyncState, db: Db, head: number, why: string): Promise<void> {
  const cursor = state.cursor!;
  const ancestor = await commonAncestor(state, db, Math.min(cursor.blockNumber, head));
  if (!ancestor) {
    const genesis = await state.blockHash(0);
    // Not a block the cache holds can be trusted now: it is fetched again with the rebuild.
    await forgetChain(state, db);
    if (genesis !== state.options.deployment.genesisHash) {
      await resetMirror(state, db, "the chain was reset");
      throw new ChainMismatchError(`the chain at ${state.options.rpcUrl} was reset; waiting for its deployment`);
    }
    return resetMirror(state, db, `${why}, deeper than the ${state.finalityDepth} blocks kept`);
  }
  state.logger.warn(`indexer: reorg (${why}); rolling back from ${cursor.blockNumber} to ${ancestor.number}`);
  state.cache.clear(false);
  await db.transaction((tx) => rollback(tx as unknown as Db, state.chainId, ancestor));
  state.cursor = { ...cursor, blockNumber: ancestor.number, blockHash: ancestor.hash };
  // A collection whose CollectionAllowed was rolled back is no longer followed (its replay catches it up again).
  await loadFollowedCollections(state, db);
}

/** The chain is not the one the log cache was fetched from (reset, or reorged deeper than the blocks kept). */
export async function forgetChain(state: SyncState, db: Db): Promise<void> {
  state.logger.warn(`indexer: forgetting the log cache of chain ${state.chainId}`);
  await dropCache(db, state.chainId);
}

/** The newest kept block at or below `top` whose hash the chain still has, asked 16 at a time. */
async function commonAncestor(state: SyncState, db: Db, top: number): Promise<Block | null> {
  const kept = await db
    .select({ number: chainBlocks.number, hash: chainBlocks.hash })
    .from(chainBlocks)
    .where(and(eq(chainBlocks.chainId, state.chainId), lte(chainBlocks.number, top)))
    .orderBy(sql`${chainBlocks.number} desc`);
  for (let i = 0; i < kept.length; i += 16) {
    const slice = kept.slice(i, i + 16);
    const hashes = await Promise.all(slice.map((block) => state.blockHash(block.number).catch(() => null)));
    const ancestor = slice.find((block, j) => hashes[j] === block.hash);
    if (ancestor) return ancestor;
  }
  return null;
}

/** Undoes everything above `ancestor` in one transaction; pushed events above it get correction rows. */
export async function rollback(db: Db, chainId: number, ancestor: Block): Promise<void> {
  const undo = await db
    .select()
    .from(chainUndo)
    .where(and(eq(chainUndo.chainId, chainId), gt(chainUndo.blockNumber, ancestor.number)))
    .orderBy(sql`${chainUndo.id} desc`);
  for (const entry of undo) {
    if (entry.tableName === LOAN_UNDO_TABLE) {
      await undoLoanChange(db, entry.rowKey as Record<string, unknown>, entry.previous);
      continue;
    }
    if (!DERIVED_NAMES.has(entry.tableName)) throw new Error(`unknown table ${entry.tableName} in the undo journal`);
    const table = sql.identifier(entry.tableName);
    const key = entry.rowKey as Record<string, unknown>;
    const match = sql.join(
      Object.keys(key).map((column) => sql`t.${sql.identifier(column)} = k.${sql.identifier(column)}`),
      sql` and `,
    );
    await db.execute(sql`delete from ${table} t using jsonb_populate_record(null::${table}, ${JSON.stringify(key)}::jsonb) k where ${match}`);
    if (entry.previous) {
      await db.execute(sql`insert into ${table} select * from jsonb_populate_record(null::${table}, ${JSON.stringify(entry.previous)}::jsonb)`);
    }
  }
  await db.delete(chainUndo).where(and(eq(chainUndo.chainId, chainId), gt(chainUndo.blockNumber, ancestor.number)));
  for (const table of LOG_TABLES) {
    await db.delete(table).where(and(eq(table.chainId, chainId), gt(table.blockNumber, ancestor.number)));
  }
  await pruneCache(db, chainId, ancestor);
  await db.delete(chainBlocks).where(and(eq(chainBlocks.chainId, chainId), gt(chainBlocks.number, ancestor.number)));
  await db.execute(sql`
    insert into chain_outbox (chain_id, block_number, tx_hash, log_index, event, rooms, payload, kind, corrects_id)
    select chain_id, block_number, tx_hash, log_index, event, rooms, payload || '{"reverted": true}'::jsonb, 'correction', id
    from chain_outbox
    where chain_id = ${chainId} and block_number > ${ancestor.number} and kind = 'event' and not reverted
    order by id`);
  const corrected = await db
    .update(chainOutbox)
    .set({ reverted: true })
    .where(and(eq(chainOutbox.chainId, chainId), gt(chainOutbox.blockNumber, ancestor.number), eq(chainOutbox.kind, "event"), eq(chainOutbox.reverted, false)))
    .returning({ id: chainOutbox.id });
  await db.update(chainCursors).set({ blockNumber: ancestor.number, blockHash: ancestor.hash, updatedAt: new Date() }).where(eq(chainCursors.chainId, chainId));
  if (corrected.length > 0) await db.execute(sql`select pg_notify(${OUTBOX_CHANNEL}, ${String(chainId)})`);
}
