import pg from "pg";
import { e2eDatabaseUrls } from "./stack";

/** Reads the e2e stack's own database directly: what the app wrote must really be there. */
export async function query<T extends Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: e2eDatabaseUrls().e2e });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}
