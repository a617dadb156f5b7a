import { and, count, desc, eq, getTableColumns, inArray, not, sql } from "drizzle-orm";
import type { Db } from "#db/connect";
import { loans, nftMetadata, notifications, orders, users, type NotificationRow } from "#db/schema";
import type { OrderKind } from "#domain/orders";
import type { NotificationContent } from "./notifier";
import { noticeDone } from "./noticeDone";

/** A stored notice with whether what it is about has resolved (computed when read, never stored). */
export type ListedNotification = NotificationRow & { done: boolean };

export interface NotificationPage {
  rows: ListedNotification[];
  total: number;
  unread: number;
}

/** Rows per recipient; every read and write is scoped to the owner so nobody touches another's notices. */
export function createNotificationsRepository(db: Db) {
  return {
    /** One row per user, in the caller's transaction when given one. */
    async insertFor(userIds: string[], content: NotificationContent, tx: Db = db): Promise<NotificationRow[]> {
      if (userIds.length === 0) return [];
      return tx
        .insert(notifications)
        .values(
          userIds.map((userId) => ({
            userId,
            type: content.type,
            title: content.title,
            message: content.message,
            link: content.link ?? null,
            aboutOrder: content.about?.orderHash?.toLowerCase() ?? null,
            aboutLoan: content.about?.loanId ?? null,
          })),
        )
        .returning();
    },

    async adminIds(tx: Db = db): Promise<string[]> {
      const rows = await tx.select({ id: users.id }).from(users).where(eq(users.role, "admin"));
      return rows.map((row) => row.id);
    },

    /** Investors who may buy a new listing: approved KYC and a verified wallet. */
    async investorIds(tx: Db = db): Promise<string[]> {
      const rows = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.kycStatus, "approved"), sql`${users.walletAddress} is not null`));
      return rows.map((row) => row.id);
    },

    /** The account whose loan a note is (its token id is the loan number), if the note is one of ours. */
    async borrowerOfNote(tokenId: string, tx: Db = db): Promise<string | null> {
      if (!/^\d{1,78}$/.test(tokenId)) return null;
      const [row] = await tx
        .select({ userId: loans.userId })
        .from(loans)
        .where(eq(loans.loanNumber, BigInt(tokenId)))
        .limit(1);
      return row?.userId ?? null;
    },

    /**
     * A collection's name as the metadata cache knows it: read with this piece, else with any other piece of the
     * collection; null when no read named it.
     */
    async collectionName(chainId: number, collection: string, tokenId: string, tx: Db = db): Promise<string | null> {
      if (!/^\d{1,78}$/.test(tokenId)) return null;
      const [row] = await tx
        .select({ name: nftMetadata.collectionName })
        .from(nftMetadata)
        .where(and(eq(nftMetadata.chainId, chainId), eq(nftMetadata.collection, collection.toLowerCase()), sql`${nftMetadata.collectionName} is not null`))
        .orderBy(sql`${nftMetadata.tokenId} = ${tokenId}::numeric desc`, desc(nftMetadata.fetchedAt))
        .limit(1);
      return row?.name ?? null;
    },

    /** Who signed the stored order of this hash: its kind and the account of its signer's verified wallet (if any). */
    async orderSigner(hash: string, tx: Db = db): Promise<{ kind: OrderKind; userId: string | null } | null> {
      const [row] = await tx.select({ kind: orders.kind, userId: users.id }).from(orders).leftJoin(users, eq(users.walletAddress, orders.signer)).where(eq(orders.hash, hash.toLowerCase())).limit(1);
      return row ? { kind: row.kind, userId: row.userId } : null;
    },

    async page(userId: string, options: { page: number; limit: number; unreadOnly: boolean }): Promise<NotificationPage> {
      const mine = eq(notifications.userId, userId);
      // A done notice needs nothing from its reader, so it is never counted or listed as unread.
      const unreadNow = and(eq(notifications.read, false), not(noticeDone));
      const where = options.unreadOnly ? and(mine, unreadNow) : mine;
      const [rows, [{ total }], [{ unread }]] = await Promise.all([
        db
          .select({ ...getTableColumns(notifications), done: noticeDone })
          .from(notifications)
          .where(where)
          .orderBy(desc(notifications.createdAt), desc(notifications.id))
          .limit(options.limit)
          .offset((options.page - 1) * options.limit),
        db.select({ total: count() }).from(notifications).where(where),
        db.select({ unread: count() }).from(notifications).where(and(mine, unreadNow)),
      ]);
      return { rows, total: Number(total), unread: Number(unread) };
    },

    async markRead(id: string, userId: string): Promise<ListedNotification | undefined> {
      const mine = and(eq(notifications.id, id), eq(notifications.userId, userId));
      const [updated] = await db.update(notifications).set({ read: true }).where(mine).returning({ id: notifications.id });
      if (!updated) return undefined;
      const [row] = await db
        .select({ ...getTableColumns(notifications), done: noticeDone })
        .from(notifications)
        .where(mine);
      return row;
    },

    async markAllRead(userId: string): Promise<number> {
      const rows = await db
        .update(notifications)
        .set({ read: true })
        .where(and(eq(notifications.userId, userId), eq(notifications.read, false)))
        .returning({ id: notifications.id });
      return rows.length;
    },

    async deleteIds(ids: string[], tx: Db = db): Promise<NotificationRow[]> {
      if (ids.length === 0) return [];
      return tx.delete(notifications).where(inArray(notifications.id, ids)).returning();
    },
  };
}

export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;
