import { randomBytes } from "node:crypto";
import { connectDatabase, type DatabaseHandle } from "./connect";

export const DEFAULT_ADMIN_URL = "postgres://postgres@127.0.0.1:5432/test";

export interface TestDatabase extends DatabaseHandle {
  /** The database's own URL (null for the in-memory PGlite fallback). */
  url: string | null;
  /** Closes the pool and drops the database. */
  drop(): Promise<void>;
}

/**
 * A fresh, uniquely named, migrated database on the server in DATABASE_URL (that URL is only the admin
 * connection). Falls back to an in-memory PGlite only when no Postgres answers, so tests still run anywhere.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = process.env.DATABASE_URL || DEFAULT_ADMIN_URL;
  const { default: pg } = await import("pg");
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch {
    await admin.end().catch(() => {});
    const handle = await connectDatabase({});
    return { ...handle, url: null, drop: () => handle.close() };
  }
  const name = `lm_test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  try {
    await dropStale(admin);
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await connectDatabase({ databaseUrl: url.toString(), maxConnections: 4 });
  return {
    ...handle,
    url: url.toString(),
    async drop() {
      await handle.close();
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      try {
        await dropper.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await dropper.end();
      }
    },
  };
}

const STALE_AFTER_MS = 6 * 60 * 60_000;

/** A test run killed before its drop() leaves its database behind: sweep those older than a few hours. */
async function dropStale(admin: { query(sql: string): Promise<{ rows: { datname: string }[] }> }): Promise<void> {
  const { rows } = await admin.query("select datname from pg_database where datname like 'lm\\_test\\_%'");
  for (const { datname } of rows) {
    const created = parseInt(datname.split("_")[2] ?? "", 36);
    if (Number.isFinite(created) && Date.now() - created > STALE_AFTER_MS) {
      await admin.query(`drop database if exists "${datname}" with (force)`).catch(() => {});
    }
  }
}
