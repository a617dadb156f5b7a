import { and, asc, desc, eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "#db/connect";
import { users } from "#db/schema";
import type { z } from "zod";
import type { adminUsersQuerySchema } from "#domain/schemas/admin";
import { toWireUser } from "../users/wire";

/** GET /admin/users: search by name, email or wallet, filter by KYC status and role, with each user's loan count. */
export async function listUsers(db: Db, query: z.infer<typeof adminUsersQuerySchema>, appOrigin: string) {
  const conditions: SQL[] = [];
  if (query.kycStatus) conditions.push(eq(users.kycStatus, query.kycStatus));
  if (query.role) conditions.push(eq(users.role, query.role));
  if (query.search) {
    const like = `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(sql`(${users.email} ilike ${like} or (${users.firstName} || ' ' || ${users.lastName}) ilike ${like} or ${users.walletAddress} ilike ${like})`);
  }
  const where = conditions.length ? and(...conditions) : undefined;
  // Spelled out: inside a select from users, drizzle renders ${loans.userId} and ${users.id} without their tables, and
  // the subquery compared loans.user_id with loans.id, a count of 0 for everyone.
  const loanCount = sql<number>`(select count(*)::int from "loans" where "loans"."user_id" = "users"."id")`;
  const rows = await db
    .select({ user: users, loanCount })
    .from(users)
    .where(where)
    // Pending KYC first: that is what an admin opens this page for.
    .orderBy(sql`case when ${users.kycStatus} = 'pending' then 0 else 1 end`, desc(users.createdAt), asc(users.id))
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
  const [{ count }] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(users)
    .where(where);
  return {
    users: rows.map((r) => ({ ...toWireUser(r.user, appOrigin), loanCount: r.loanCount })),
    pagination: { page: query.page, limit: query.limit, total: count, totalUsers: count, totalPages: Math.max(1, Math.ceil(count / query.limit)) },
  };
}
