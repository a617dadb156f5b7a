import { getTableColumns, getTableName, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "../db/connect";

/**
 * Multi-row insert with one parameter per column: each column's values travel as one Postgres array and
 * `unnest` turns them back into rows. Building a VALUES list of thousands of rows cost ten times more,
 * most of it in the driver's per-parameter work.
 */
export async function bulkInsert(
  db: Db,
  table: PgTable,
  rows: Record<string, unknown>[],
  onConflict: { doNothing: true } | { target: string[] },
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.entries(getTableColumns(table) as Record<string, PgColumn>);
  const names = sql.join(columns.map(([, column]) => sql.identifier(column.name)), sql`, `);
  const arrays = sql.join(
    columns.map(([field, column]) => sql`${arrayLiteral(rows.map((row) => row[field]))}::${sql.raw(column.getSQLType())}[]`),
    sql`, `,
  );
  let conflict: SQL;
  if ("doNothing" in onConflict) {
    conflict = sql`on conflict do nothing`;
  } else {
    const keys = new Set(onConflict.target);
    const target = columns.filter(([field]) => keys.has(field)).map(([, column]) => column.name);
    const updates = columns
      .filter(([field]) => !keys.has(field))
      .map(([, column]) => sql`${sql.identifier(column.name)} = excluded.${sql.identifier(column.name)}`);
    conflict = sql`on conflict (${sql.join(target.map((name) => sql.identifier(name)), sql`, `)}) do update set ${sql.join(updates, sql`, `)}`;
  }
  await db.execute(sql`insert into ${sql.identifier(getTableName(table))} (${names}) select * from unnest(${arrays}) ${conflict}`);
}

/** A Postgres array literal ({a,"b c",NULL}) of scalar values; the cast on the SQL side gives them their type. */
function arrayLiteral(values: unknown[]): string {
  const parts = values.map((value) => {
    if (value === null || value === undefined) return "NULL";
    if (value instanceof Date) return `"${value.toISOString()}"`;
    if (typeof value === "bigint" || typeof value === "number") return value.toString();
    if (typeof value === "boolean") return value ? "t" : "f";
    return `"${String(value).replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
  });
  return `{${parts.join(",")}}`;
}
