import { getTableColumns, getTableName, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "#db/connect";

/**
 * Multi-row insert with one parameter per column: each column's values travel as one Postgres array and
 * `unnest` turns them back into rows. Building a VALUES list of thousands of rows cost ten times more,
 * most of it in the driver's per-parameter work.
 */
export async function bulkInsert(db: Db, table: PgTable, rows: Record<string, unknown>[], onConflict: OnConflict): Promise<void> {
  if (rows.length > 0) await db.execute(bulkInsertQuery(table, rows, onConflict));
}

/** Skip rows already there, update them, or (null) insert plainly: for rows that cannot be there yet. */
export type OnConflict = { doNothing: true } | { target: string[] } | null;

/**
 * The statement alone, so a batch can send all its tables' inserts as one statement (data-modifying WITH
 * clauses). Columns the rows leave undefined and the table fills itself (a serial id) are left out.
 */
export function bulkInsertQuery(table: PgTable, rows: Record<string, unknown>[], onConflict: OnConflict): SQL {
  const columns = Object.entries(getTableColumns(table) as Record<string, PgColumn>).filter(([field, column]) => !(column.hasDefault && rows[0][field] === undefined));
  const names = sql.join(
    columns.map(([, column]) => sql.identifier(column.name)),
    sql`, `,
  );
  // A column whose rows all hold one value (the chain, a batch's new notes' status, the treasury holding them)
  // travels as that one value: Postgres reads a statement's literals byte by byte, and these were a third of them.
  const arrays: SQL[] = [];
  const aliases: ReturnType<typeof sql.identifier>[] = [];
  const selected = columns.map(([field, column], i) => {
    const type = sql.raw(column.getSQLType());
    const constant = constantOf(rows, field);
    if (constant !== VARYING) return sql`${scalar(constant)}::${type}`;
    arrays.push(sql`${arrayLiteral(rows, field)}::${type}[]`);
    aliases.push(sql.identifier(`c${i}`));
    return aliases[aliases.length - 1];
  });
  const source = arrays.length > 0 ? sql` from unnest(${sql.join(arrays, sql`, `)}) as u(${sql.join(aliases, sql`, `)})` : sql``;
  let conflict: SQL;
  if (onConflict === null) {
    conflict = sql``;
  } else if ("doNothing" in onConflict) {
    conflict = sql` on conflict do nothing`;
  } else {
    const keys = new Set(onConflict.target);
    const target = columns.filter(([field]) => keys.has(field)).map(([, column]) => column.name);
    const updates = columns.filter(([field]) => !keys.has(field)).map(([, column]) => sql`${sql.identifier(column.name)} = excluded.${sql.identifier(column.name)}`);
    conflict = sql` on conflict (${sql.join(
      target.map((name) => sql.identifier(name)),
      sql`, `,
    )}) do update set ${sql.join(updates, sql`, `)}`;
  }
  return sql`insert into ${sql.identifier(getTableName(table))} (${names}) select ${sql.join(selected, sql`, `)}${source}${conflict}`;
}

const VARYING = Symbol("varying");

/** The one value every row holds in this column, or VARYING. Dates count as equal by their time; objects never do. */
function constantOf(rows: Record<string, unknown>[], field: string): unknown {
  const first = rows[0][field] ?? null;
  if (typeof first === "object" && first !== null && !(first instanceof Date)) return rows.length === 1 ? first : VARYING;
  const time = first instanceof Date ? first.getTime() : null;
  for (let i = 1; i < rows.length; i++) {
    const value = rows[i][field] ?? null;
    if (time === null ? value !== first : !(value instanceof Date) || value.getTime() !== time) return VARYING;
  }
  return first;
}

/** One value as a statement parameter: dates as ISO texts and objects as JSON, so the statement can be inlined. */
function scalar(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object" && value !== null) return JSON.stringify(value);
  return value;
}

/**
 * A Postgres array literal ({a,"b c",NULL}) of scalar values (objects as JSON); the cast on the SQL side
 * gives them their type. Joined from an array rather than appended to: the driver measures and copies the
 * string, which for an appended one means flattening thousands of pieces first.
 */
function arrayLiteral(rows: Record<string, unknown>[], field: string): string {
  const parts = new Array<string>(rows.length);
  // Rows of one block share its time: format each Date once.
  let lastDate: Date | null = null;
  let lastIso = "";
  let strings = 0;
  let quoted = false;
  for (let i = 0; i < rows.length; i++) {
    const value = rows[i][field];
    if (typeof value === "string") {
      parts[i] = value;
      strings++;
      // Empty and null-like texts always need quotes; checking their length is all most values cost.
      if (value.length === 0 || value.length === 4) quoted = true;
    } else if (value === null || value === undefined) parts[i] = "NULL";
    else if (typeof value === "bigint" || typeof value === "number") parts[i] = value.toString();
    else if (typeof value === "boolean") parts[i] = value ? "t" : "f";
    else if (value instanceof Date) {
      if (value !== lastDate) [lastDate, lastIso] = [value, `"${value.toISOString()}"`];
      parts[i] = lastIso;
    } else parts[i] = quote(JSON.stringify(value));
  }
  const body = parts.join(",");
  // Hashes and addresses, the usual texts, need no quotes: one scan of the whole column says so, instead
  // of a test per value. Anything doubtful goes value by value.
  if (strings > 0 && (quoted || NEEDS_QUOTES_ANYWHERE.test(body) || commas(body) !== rows.length - 1)) {
    for (let i = 0; i < rows.length; i++) {
      const value = rows[i][field];
      if (typeof value === "string") parts[i] = quote(value);
    }
    return `{${parts.join(",")}}`;
  }
  return `{${body}}`;
}

/** What an unquoted array element may not be or contain (Postgres reads it as null, a delimiter or trims it). */
const NEEDS_QUOTES = /[{}",\\\s]|^$|^null$/i;
/** The same test over a joined column, commas aside (they are counted); control characters count as space. */
const NEEDS_QUOTES_ANYWHERE = /[{}"\\\s\p{Cc}]/u;

function commas(text: string): number {
  let count = 0;
  for (let at = text.indexOf(","); at !== -1; at = text.indexOf(",", at + 1)) count++;
  return count;
}

/** Hashes and addresses go as they are (no new string); anything else is quoted and escaped. */
function quote(text: string): string {
  if (!NEEDS_QUOTES.test(text)) return text;
  return `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/**
 * Several writes as one statement (data-modifying WITH clauses), atomic without a transaction of its own
 * and one round trip: each must touch rows the others do not, as they all see the same snapshot.
 */
export function withWrites(queries: SQL[], last: SQL = sql`select 1`): SQL {
  const writes = sql.join(
    queries.map((query, i) => sql`${sql.identifier(`w${i}`)} as (${query})`),
    sql`, `,
  );
  return sql`with ${writes} ${last}`;
}
