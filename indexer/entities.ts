import { sql } from "drizzle-orm";
import { chainCollateral, chainCollections, chainCredits, chainListings, chainNftOwners, chainNotes, chainOrderCounters, chainVaultPositions } from "#db/schema/chain";
import type { ChainEvent } from "./decode";
import type { EntityDef } from "./store";

/** The derived tables: the rows events change, loaded per batch by the keys its events name. */

/** A note's id: a collection's Transfer names a piece of that collection, not a note. */
const tokenIdOf = (event: ChainEvent): bigint[] => {
  if (event.contract === COLLECTION || typeof event.args.tokenId !== "bigint") return [];
  // A refinance names the note it minted too (its handler reads both).
  return typeof event.args.newTokenId === "bigint" ? [event.args.tokenId, event.args.newTokenId] : [event.args.tokenId];
};

/** The contract name of every followed ERC-721 collection (indexer/collections.ts). */
export const COLLECTION = "Collection";
/** The followed name of LoanNote's CollateralEscrow, whose events are the allow-list's and the pledges'. */
export const ESCROW = "CollateralEscrow";

export const notesDef: EntityDef<typeof chainNotes.$inferSelect> = {
  table: chainNotes,
  keyFields: ["tokenId"],
  loadColumn: chainNotes.tokenId,
  loadValues: tokenIdOf,
};

/** Looked up by token: the one listing of a note that is still active. */
export const listingsDef: EntityDef<typeof chainListings.$inferSelect> = {
  table: chainListings,
  keyFields: ["txHash", "logIndex"],
  loadColumn: chainListings.tokenId,
  loadValues: tokenIdOf,
  loadWhere: sql`${chainListings.status} = 'active'`,
  indexOf: (row) => (row.status === "active" ? String(row.tokenId) : null),
};

export const vaultPositionsDef: EntityDef<typeof chainVaultPositions.$inferSelect> = {
  table: chainVaultPositions,
  keyFields: ["tokenId"],
  loadColumn: chainVaultPositions.tokenId,
  loadValues: tokenIdOf,
};

export const creditsDef: EntityDef<typeof chainCredits.$inferSelect> = {
  table: chainCredits,
  keyFields: ["account"],
  loadColumn: chainCredits.account,
  loadValues: (event) => {
    if (event.name === "Repaid") return [event.args.beneficiary as string];
    if (event.name === "CreditsWithdrawn") return [event.args.account as string];
    return [];
  },
};

export const orderCountersDef: EntityDef<typeof chainOrderCounters.$inferSelect> = {
  table: chainOrderCounters,
  keyFields: ["signer"],
  loadColumn: chainOrderCounters.signer,
  loadValues: (event) => (event.name === "CounterIncremented" ? [event.args.signer as string] : []),
};

/** LoanNote's allow-list, by collection. */
export const collectionsDef: EntityDef<typeof chainCollections.$inferSelect> = {
  table: chainCollections,
  keyFields: ["collection"],
  loadColumn: chainCollections.collection,
  loadValues: (event) => (event.name === "CollectionAllowed" || event.name === "CollectionDisallowed" ? [event.args.collection as string] : []),
};

const COLLATERAL_EVENTS = new Set(["CollateralLocked", "CollateralReturned", "CollateralReturnFailed", "CollateralClaimed", "CollateralMoved"]);

/** The notes a collateral event names: a move names the new note beside the old. */
const pledgesOf = (event: ChainEvent): bigint[] => {
  if (event.contract === COLLECTION || !COLLATERAL_EVENTS.has(event.name)) return [];
  return event.name === "CollateralMoved" ? [event.args.tokenId as bigint, event.args.newTokenId as bigint] : [event.args.tokenId as bigint];
};

/** The piece pledged for a note, by note. */
export const collateralDef: EntityDef<typeof chainCollateral.$inferSelect> = {
  table: chainCollateral,
  keyFields: ["tokenId"],
  loadColumn: chainCollateral.tokenId,
  loadValues: pledgesOf,
};

/**
 * The owner of each piece of a followed collection, keyed by (collection, piece) but loaded by piece id: loading an id
 * loads that id's rows of every collection, so a known id stays true for all of them.
 */
export const nftOwnersDef: EntityDef<typeof chainNftOwners.$inferSelect> = {
  table: chainNftOwners,
  keyFields: ["collection", "tokenId"],
  loadColumn: chainNftOwners.tokenId,
  loadValues: (event) => (event.contract === COLLECTION ? [event.args.tokenId as bigint] : []),
};

export const ENTITY_DEFS = [notesDef, listingsDef, vaultPositionsDef, creditsDef, orderCountersDef, collectionsDef, collateralDef, nftOwnersDef] as unknown as EntityDef<Record<string, unknown>>[];
