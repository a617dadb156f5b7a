import { sql } from "drizzle-orm";
import { chainCredits, chainListings, chainNotes, chainOrderCounters, chainVaultPositions } from "#db/schema/chain";
import type { ChainEvent } from "./decode";
import type { EntityDef } from "./store";

/** The derived tables: the rows events change, loaded per batch by the keys its events name. */

const tokenIdOf = (event: ChainEvent): bigint[] => (typeof event.args.tokenId === "bigint" ? [event.args.tokenId] : []);

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

export const ENTITY_DEFS = [notesDef, listingsDef, vaultPositionsDef, creditsDef, orderCountersDef] as unknown as EntityDef<Record<string, unknown>>[];
