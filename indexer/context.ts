import type { PgTable } from "drizzle-orm/pg-core";
import type { Abi, ContractEventName, GetEventArgs } from "viem";
import type { chainCollateral, chainCollections, chainCredits, chainListings, chainNftOwners, chainNotes, chainOrderCounters, chainVaultPositions } from "#db/schema/chain";
import type { ChainEvent } from "./decode";
import { collateralDef, collectionsDef, creditsDef, listingsDef, nftOwnersDef, notesDef, orderCountersDef, vaultPositionsDef } from "./entities";
import { recordLoanChange, type LoanChange } from "./loans";
import type { Batch, Entities, OutboxMessage } from "./store";

export const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

/** What a handler sees: the batch's rows in memory, an append for log rows, and the outbox. */
export interface Context {
  chainId: number;
  /** Lowercase contract addresses of the deployment, and its treasury (the lender of record, no user). */
  addresses: { loanNote: string; marketplace: string; vault: string; stablecoin: string; treasury: string };
  notes: Entities<typeof chainNotes.$inferSelect>;
  listings: Entities<typeof chainListings.$inferSelect>;
  vaultPositions: Entities<typeof chainVaultPositions.$inferSelect>;
  credits: Entities<typeof chainCredits.$inferSelect>;
  /** Each signer's order counter (NoteOrders.incrementCounter), by signer. */
  orderCounters: Entities<typeof chainOrderCounters.$inferSelect>;
  /** LoanNote's allow-list of pledgeable collections, by collection. */
  collections: Entities<typeof chainCollections.$inferSelect>;
  /** The piece pledged for each note, by note. */
  collateral: Entities<typeof chainCollateral.$inferSelect>;
  /** Who owns each piece of a followed collection, by (collection, piece). */
  nftOwners: Entities<typeof chainNftOwners.$inferSelect>;
  insert(table: PgTable, row: Record<string, unknown>): void;
  emit(message: OutboxMessage): void;
  /** A change the off-chain loan of this note follows (indexer/loans.ts), applied with the batch's rows. */
  loan(change: LoanChange): void;
  /** Per-batch memory for facts that arrive in one transaction across several logs (a mint before its terms). */
  scratch: Map<string, unknown>;
}

/** One event of `abi` as the decoder gives it: every argument, named and typed as the ABI declares it. */
export type AbiChainEvent<abi extends Abi, name extends ContractEventName<abi>> = Omit<ChainEvent, "name" | "args"> & {
  name: name;
  args: GetEventArgs<abi, name, { EnableUnion: false; IndexedOnly: false; Required: true }>;
};

/** Handlers are synchronous: everything they read was loaded for the batch. */
export type Handler = (event: ChainEvent, ctx: Context) => void;

/** A contract's handlers (Ponder-style), keyed by the events of its ABI, each reading its own event's args. */
export type Handlers<abi extends Abi> = {
  [name in ContractEventName<abi>]?: (event: AbiChainEvent<abi, name>, ctx: Context) => void;
};

export function makeContext(batch: Batch, chainId: number, addresses: Context["addresses"], event: () => ChainEvent): Context {
  return {
    chainId,
    addresses,
    notes: batch.entity(notesDef),
    listings: batch.entity(listingsDef),
    vaultPositions: batch.entity(vaultPositionsDef),
    credits: batch.entity(creditsDef),
    orderCounters: batch.entity(orderCountersDef),
    collections: batch.entity(collectionsDef),
    collateral: batch.entity(collateralDef),
    nftOwners: batch.entity(nftOwnersDef),
    insert: (table, row) => batch.insert(table, row),
    emit: (message) => batch.emit(message, event()),
    loan: (change) => recordLoanChange(batch, change, event()),
    scratch: new Map(),
  };
}

/** The identity and place of a log row: (chain, tx hash, log index), block and time. */
export function logRow(event: ChainEvent, ctx: Context) {
  return {
    chainId: ctx.chainId,
    txHash: event.txHash,
    logIndex: event.logIndex,
    blockNumber: event.blockNumber,
    blockTime: event.blockTime,
  };
}
