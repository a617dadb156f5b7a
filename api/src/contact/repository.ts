import { desc, eq } from "drizzle-orm";
import type { Db } from "#db/connect";
import { contactMessages, type ContactMessageRow } from "#db/schema";
import { isUuid } from "#domain/uuid";

export function createContactRepository(db: Db) {
  return {
    async insert(values: typeof contactMessages.$inferInsert): Promise<ContactMessageRow> {
      const [row] = await db.insert(contactMessages).values(values).returning();
      return row;
    },
    /** The admin inbox, newest first. */
    list(limit = 50, offset = 0): Promise<ContactMessageRow[]> {
      return db.select().from(contactMessages).orderBy(desc(contactMessages.createdAt)).limit(limit).offset(offset);
    },
    /** Marks one message read; null when no message has that id (or it is no UUID, which PostgreSQL would refuse). */
    async markRead(id: string, at: Date): Promise<ContactMessageRow | null> {
      if (!isUuid(id)) return null;
      const [row] = await db.update(contactMessages).set({ readAt: at }).where(eq(contactMessages.id, id)).returning();
      return row ?? null;
    },
  };
}
export type ContactRepository = ReturnType<typeof createContactRepository>;
