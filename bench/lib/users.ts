import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "#db/connect";
import { hashPassword } from "#api/auth/passwords";
import { createTokenService } from "#api/auth/tokens";

export const BENCH_PASSWORD = "bench-secret-123";

export interface BenchUser {
  id: string;
  email: string;
  password: string;
  role: "user" | "admin";
  /** A session token the API accepts (signed with the server's secret, stamped with the real password hash). */
  token: string;
}

/**
 * `count` real accounts in one statement: registering them through the API would spend minutes hashing the
 * same password on a shared machine. They share one genuine argon2 hash of BENCH_PASSWORD, so they can also
 * sign in through /api/auth/login, and their tokens are the ones the API itself issues.
 */
export async function insertBenchUsers(db: Db, jwtSecret: string, count: number, options: { role?: "user" | "admin"; kyc?: "none" | "approved" } = {}): Promise<BenchUser[]> {
  const role = options.role ?? "user";
  const run = randomUUID().slice(0, 8);
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const result = (await db.execute(sql`
    insert into users (email, password_hash, role, first_name, last_name, kyc_status)
    select 'bench.' || ${run} || '.' || g || '@example.com', ${passwordHash}, ${role}, 'Bench', 'User ' || g, ${options.kyc ?? "none"}
    from generate_series(1, ${count}) g
    returning id, email`)) as unknown as { rows: { id: string; email: string }[] };
  const tokens = createTokenService(jwtSecret);
  return Promise.all(
    result.rows.map(async (row) => ({
      id: row.id,
      email: row.email,
      password: BENCH_PASSWORD,
      role,
      token: await tokens.issue({ id: row.id, role, passwordHash }),
    })),
  );
}
