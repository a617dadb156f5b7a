import { and, desc, eq, gt, inArray, sql } from "drizzle-orm";
import type { Db } from "#db/connect";
import { chainNotes } from "#db/schema/chain";
import { orders, type NewOrderRow, type OrderRow } from "#db/schema/orders";
import type { OrderKind, OrderStatus } from "#domain/orders";

/**
 * The signed orders the API accepted (db/schema/orders.ts). Only this component writes them; the statuses are
 * the last verdict of orderStatusOf and are refreshed by the service whenever it reads an order for an answer.
 */
export function createOrdersRepository(db: Db, chainId: number) {
  const here = eq(orders.chainId, chainId);
  return {
    /** Inserts a new order; false when its hash is stored already (the same signed order sent twice). */
    async insert(row: Omit<NewOrderRow, "chainId">): Promise<OrderRow | null> {
      const [inserted] = await db
        .insert(orders)
        .values({ ...row, chainId })
        .onConflictDoNothing({ target: orders.hash })
        .returning();
      return inserted ?? null;
    },

    async byHash(hash: string): Promise<OrderRow | undefined> {
      const [row] = await db
        .select()
        .from(orders)
        .where(and(here, eq(orders.hash, hash)));
      return row;
    },

    /** The listings and offers on one note in any of `statuses`. */
    async onNote(tokenId: bigint, statuses: readonly OrderStatus[]): Promise<OrderRow[]> {
      return db
        .select()
        .from(orders)
        .where(and(here, eq(orders.tokenId, tokenId), inArray(orders.status, [...statuses])))
        .orderBy(desc(orders.createdAt));
    },

    /** The listings and offers on any of these notes, of `kind`, in any of `statuses`. */
    async onNotes(tokenIds: bigint[], kind: OrderKind, statuses: readonly OrderStatus[]): Promise<OrderRow[]> {
      if (tokenIds.length === 0) return [];
      return db
        .select()
        .from(orders)
        .where(and(here, eq(orders.kind, kind), inArray(orders.tokenId, tokenIds), inArray(orders.status, [...statuses])))
        .orderBy(desc(orders.createdAt));
    },

    async matching(statuses: readonly OrderStatus[]): Promise<OrderRow[]> {
      return db
        .select()
        .from(orders)
        .where(and(here, eq(orders.kind, "matchingOffer"), inArray(orders.status, [...statuses])))
        .orderBy(desc(orders.createdAt));
    },

    /** Every order `signer` signed, newest first. */
    async bySigner(signer: string): Promise<OrderRow[]> {
      return db
        .select()
        .from(orders)
        .where(and(here, eq(orders.signer, signer)))
        .orderBy(desc(orders.createdAt));
    },

    /** How many orders `signer` has in any of `statuses` that expire after `now` (the chain's clock, seconds). */
    async countLive(signer: string, statuses: readonly OrderStatus[], now: bigint): Promise<number> {
      const [row] = await db
        .select({ count: sql<number>`count(*)::int` })
        .from(orders)
        .where(and(here, eq(orders.signer, signer), inArray(orders.status, [...statuses]), gt(orders.expiry, now)));
      return row?.count ?? 0;
    },

    /**
     * Every open listing, and every listing a late borrower holds back, for the marketplace (their prices are computed
     * from the mirror's notes; a held one shows its note as late, never as buyable).
     */
    async openListings(): Promise<OrderRow[]> {
      return db
        .select()
        .from(orders)
        .where(and(here, eq(orders.kind, "listing"), inArray(orders.status, ["open", "late"])));
    },

    /** Every open offer on one note, for the marketplace's best offer. */
    async openOffers(): Promise<OrderRow[]> {
      return db
        .select()
        .from(orders)
        .where(and(here, inArray(orders.kind, ["offer", "matchingOffer"]), eq(orders.status, "open")));
    },

    /** Changes whenever an order is stored or changes status: the marketplace's cached answers depend on it. */
    async version(): Promise<string> {
      const [row] = await db
        .select({ count: sql<string>`count(*)::text`, latest: sql<string>`coalesce(max(${orders.updatedAt}), 'epoch')::text` })
        .from(orders)
        .where(here);
      return `${row?.count ?? 0}:${row?.latest ?? ""}`;
    },

    /** The notes `wallet` holds, directly or in the vault, per the chain mirror (the offers it may accept). */
    async heldTokenIds(wallet: string): Promise<bigint[]> {
      const rows = await db
        .select({ tokenId: chainNotes.tokenId })
        .from(chainNotes)
        .where(and(eq(chainNotes.chainId, chainId), eq(chainNotes.holder, wallet), eq(chainNotes.burned, false)));
      return rows.map((r) => r.tokenId);
    },

    async setStatus(hash: string, status: OrderStatus, reason: string | null, filled: bigint): Promise<void> {
      await db
        .update(orders)
        .set({ status, statusReason: reason, filled, updatedAt: sql`now()` })
        .where(and(here, eq(orders.hash, hash)));
    },
  };
}
export type OrdersRepository = ReturnType<typeof createOrdersRepository>;
