import { eq, sql } from "drizzle-orm";
import type { Db } from "#db/connect";
import { users, type NewUserRow, type UserRow } from "#db/schema";
import { isUuid } from "#domain/uuid";

export function createUsersRepository(db: Db) {
  return {
    async findById(id: string): Promise<UserRow | undefined> {
      if (!isUuid(id)) return undefined;
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },
    async findByEmail(email: string): Promise<UserRow | undefined> {
      const [row] = await db
        .select()
        .from(users)
        .where(sql`lower(${users.email}) = lower(${email})`)
        .limit(1);
      return row;
    },
    async findByWallet(address: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.walletAddress, address.toLowerCase())).limit(1);
      return row;
    },
    async insert(values: NewUserRow): Promise<UserRow> {
      const [row] = await db.insert(users).values(values).returning();
      return row;
    },
    async update(id: string, values: Partial<NewUserRow>): Promise<UserRow | undefined> {
      const [row] = await db
        .update(users)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(users.id, id))
        .returning();
      return row;
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;

/** Postgres (and PGlite) report a unique violation with SQLSTATE 23505, sometimes on a wrapped cause. */
export function uniqueViolation(error: unknown): string | null {
  for (let current = error as { code?: string; constraint?: string; cause?: unknown } | undefined; current; current = current.cause as typeof current) {
    if (current.code === "23505") return current.constraint ?? "";
  }
  return null;
}
