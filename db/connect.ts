import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import * as schema from "./schema";
import { releaseLostClients } from "./connectionLost";

export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), "migrations");

/** Both drivers' databases share this type, so callers never care which one is open. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Db;
  kind: "postgres" | "pglite";
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** Postgres connection string; when absent, PGlite is used. */
  databaseUrl?: string;
  /** PGlite keeps its files in <dataDir>/pglite; omitted = in memory. */
  dataDir?: string;
  /** Apply the committed migrations (default true). */
  migrate?: boolean;
  /** Postgres pool size. */
  maxConnections?: number;
}

/** Arbitrary but fixed: serialises migrations of processes starting at once against one Postgres. */
const MIGRATION_LOCK_ID = 724_113_001;

/** The one place that opens the database: Postgres when a URL is given, else PGlite. */
export async function connectDatabase(options: ConnectOptions = {}): Promise<DatabaseHandle> {
  const handle = options.databaseUrl ? await openPostgres(options.databaseUrl, options.maxConnections ?? 10) : await openPglite(options.dataDir);
  if (options.migrate !== false) {
    try {
      await migrateDatabase(handle, options.databaseUrl);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }
  return handle;
}

async function openPostgres(databaseUrl: string, max: number): Promise<DatabaseHandle> {
  const { default: pg } = await import("pg");
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max,
    // A request waits at most this long for a connection (a server that does not answer, or every connection
    // busy), then fails with a 503 instead of hanging (api/src/http/errors.ts).
    connectionTimeoutMillis: 10_000,
    // A server gone without a word (a dropped network) is noticed by the kernel instead of waited on forever.
    keepAlive: true,
  });
  // An idle client losing its server must not crash the process; the next query reports the error.
  pool.on("error", () => {});
  releaseLostClients(pool);
  const db = drizzle(pool, { schema }) as unknown as Db;
  return { db, kind: "postgres", close: () => pool.end() };
}

async function openPglite(dataDir?: string): Promise<DatabaseHandle> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  let client;
  if (dataDir) {
    const dir = resolve(dataDir, "pglite");
    mkdirSync(dirname(dir), { recursive: true });
    client = await PGlite.create(dir);
  } else {
    client = await PGlite.create();
  }
  const db = drizzle(client, { schema }) as unknown as Db;
  return { db, kind: "pglite", close: () => client.close() };
}

/** Applies db/migrations. On Postgres an advisory lock on one dedicated connection keeps concurrent starts apart. */
export async function migrateDatabase(handle: DatabaseHandle, databaseUrl?: string): Promise<void> {
  if (handle.kind === "pglite") {
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    await migrate(handle.db as never, { migrationsFolder: MIGRATIONS_DIR });
    return;
  }
  if (!databaseUrl) throw new Error("migrateDatabase needs the database URL for Postgres");
  const { default: pg } = await import("pg");
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const { migrate } = await import("drizzle-orm/node-postgres/migrator");
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
    await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_DIR });
  } finally {
    await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]).catch(() => {});
    await client.end();
  }
}

/** True when the database answers a trivial query. */
export async function databaseAnswers(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
