import { sql, type SQL } from "drizzle-orm";
import type { Db } from "#db/connect";
import {
  chainBlocks,
  chainCollateral,
  chainCollections,
  chainCreditWithdrawals,
  chainCredits,
  chainLateFeePayments,
  chainCursors,
  chainListings,
  chainNftOwners,
  chainNotes,
  chainOrderCancellations,
  chainOrderCounters,
  chainOrderFills,
  chainOutbox,
  chainRepayments,
  chainSales,
  chainTransfers,
  chainUndo,
  chainVaultMoves,
  chainVaultPositions,
} from "#db/schema/chain";
import { withWrites } from "./bulk";
import { deploymentKey } from "./config";
import type { Cursor, SyncState } from "./state";

/** Append-only log tables: a rollback deletes their rows above the common ancestor. */
export const LOG_TABLES = [chainSales, chainRepayments, chainLateFeePayments, chainCreditWithdrawals, chainVaultMoves, chainTransfers, chainOrderFills, chainOrderCancellations] as const;
/** Derived tables: a rollback puts their rows back from the undo journal. */
const DERIVED_TABLES = [chainNotes, chainListings, chainVaultPositions, chainCredits, chainOrderCounters, chainCollections, chainCollateral, chainNftOwners] as const;

/**
 * Drops this chain's mirror and starts again from the deploy block. History up to the current head is
 * replayed without outbox rows: those events were pushed already, or are too old to push. A rebuild from the log
 * cache gives the `start` cursor itself (it asks the node nothing). The log cache stays: it is what a rebuild reads.
 */
export async function resetMirror(state: SyncState, db: Db, reason: string, start?: Cursor): Promise<void> {
  const { deployment } = state.options;
  state.logger.info(`indexer: rebuilding the mirror of chain ${state.chainId} (${reason})`);
  const cursor = start ?? (await startCursor(state));
  const values = { chainId: state.chainId, genesisHash: deployment.genesisHash, deploymentKey: deploymentKey(deployment), ...cursor };
  state.cache.clear(false);
  await db.execute(
    withWrites([
      ...clearMirrorQueries(state.chainId),
      sql`insert into ${chainCursors} (chain_id, genesis_hash, deployment_key, block_number, block_hash, silent_until)
          values (${values.chainId}, ${values.genesisHash}, ${values.deploymentKey}, ${values.blockNumber}, ${values.blockHash}, ${values.silentUntil})
          on conflict (chain_id) do update set genesis_hash = excluded.genesis_hash, deployment_key = excluded.deployment_key,
            block_number = excluded.block_number, block_hash = excluded.block_hash, silent_until = excluded.silent_until, updated_at = now()`,
    ]),
  );
  state.cursor = cursor;
  state.cache.clear(true);
  state.followCollections([]); // each comes back with its CollectionAllowed
}

async function startCursor(state: SyncState): Promise<Cursor> {
  const start = state.options.deployment.deployBlock - 1;
  const [startHash, head] = await Promise.all([state.blockHash(start), state.client.getBlockNumber()]);
  return { blockNumber: start, blockHash: startHash, silentUntil: Number(head) - state.confirmations };
}

/** Deletes one chain's mirror; outbox rows stay (the API may still deliver them) but are marked reverted. */
export async function clearMirror(db: Db, chainId: number): Promise<void> {
  await db.execute(withWrites(clearMirrorQueries(chainId)));
}

function clearMirrorQueries(chainId: number): SQL[] {
  const tables = [...LOG_TABLES, ...DERIVED_TABLES, chainBlocks, chainUndo] as unknown as (typeof chainBlocks)[];
  return [
    ...tables.map((table) => sql`delete from ${table} where ${table.chainId} = ${chainId}`),
    sql`update ${chainOutbox} set reverted = true where ${chainOutbox.chainId} = ${chainId} and not ${chainOutbox.reverted}`,
  ];
}
