import { desc } from "drizzle-orm";
import type { Db } from "#db/connect";
import { contactMessages, type ContactMessageRow } from "#db/schema";

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
  };
}
export type ContactRepository = ReturnType<typeof createContactRepository>;
