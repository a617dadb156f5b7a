import { count, inArray, or, sql } from "drizzle-orm";
import type { Db } from "#db/connect";
import { users } from "#db/schema";
import { DEMO_EMAILS } from "#domain/demoAccounts";
import { PUBLISHED_DEV_ADDRESSES } from "#domain/publishedDevKeys";
import { ConfigError, type AppConfig } from "./env";

/**
 * Off the local chain, a database carried over from it would bring the demo logins (passwords in the README,
 * one of them an admin) and wallets whose keys are published: the start is refused, like a wrong setting,
 * naming the setting that points at that database. A demo email or a published wallet is the mark: on
 * another chain neither can be registered or linked (auth/service.ts, auth/wallets.ts), so only a seed made it.
 */
export async function refuseLocalChainAccounts(db: Db, config: AppConfig): Promise<void> {
  if (config.isLocalChain) return;
  const [{ seeded }] = await db
    .select({ seeded: count() })
    .from(users)
    .where(or(inArray(sql`lower(${users.email})`, [...DEMO_EMAILS]), inArray(users.walletAddress, [...PUBLISHED_DEV_ADDRESSES])));
  if (seeded === 0) return;
  const setting = config.databaseUrl ? "DATABASE_URL" : "DATA_DIR";
  throw new ConfigError([`${setting} holds ${seeded} account(s) of the local chain (demo logins or wallets whose keys are published): off the local chain 31337 start with a database of your own`]);
}
