import { sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Db } from "#db/connect";

/**
 * A transaction whose BEGIN travels with its first statement: one message in Postgres's simple protocol, the
 * statement's values written into it as dollar-quoted literals. A batch's transaction is a chain of round trips,
 * each of which waits whenever this process is busy with the next batch; this removes one of them.
 */

const dialect = new PgDialect();
const TAG = "$lm$";

/** The statement with its values inlined, or null when one cannot be (an object, or a text that could end the quoting). */
export function inlined(statement: SQL): string | null {
  const { sql: text, params } = dialect.sqlToQuery(statement);
  const literals: string[] = [];
  for (const param of params) {
    if (param === null || param === undefined) literals.push("NULL");
    else if (typeof param === "number" && Number.isFinite(param)) literals.push(String(param));
    else if (typeof param === "bigint") literals.push(param.toString());
    else if (typeof param === "boolean") literals.push(param ? "true" : "false");
    // Not only the tag: a text ending in "$lm" would join the closing tag and end the literal early (the rest of the
    // statement then fails to parse, for ever, on a string anyone can put on-chain).
    else if (typeof param === "string" && !param.includes(TAG.slice(0, -1))) literals.push(`${TAG}${param}${TAG}`);
    else return null;
  }
  // Placeholders are $1..$n; a match takes all its digits, so $12 is never read as $1.
  return text.replace(/\$(\d+)/g, (_, n: string) => literals[Number(n) - 1]);
}

/**
 * Runs `first` and then `rest` in one transaction on `db`, a connection of its own (never a pool: the statements
 * must share the session); `rest` gets the rows `first` answered. Without `rest`, COMMIT travels in the same
 * message too: the whole transaction is one round trip. A throw rolls back.
 */
export async function transactionFrom(db: Db, first: SQL, rest: ((tx: Db, rows: Record<string, unknown>[]) => Promise<void>) | null): Promise<void> {
  const text = inlined(first);
  if (text === null) {
    await db.transaction(async (tx) => {
      const rows = rowsOf(await tx.execute(first));
      await rest?.(tx as unknown as Db, rows);
    });
    return;
  }
  try {
    // Statements in one message: the driver answers one result per statement, BEGIN's first.
    if (!rest) return void (await db.execute(sql.raw(`begin; ${text}; commit`)));
    const results = await db.execute(sql.raw(`begin; ${text}`));
    await rest(db, rowsOf(results));
    await db.execute(sql`commit`);
  } catch (error) {
    await db.execute(sql`rollback`).catch(() => {});
    throw error;
  }
}

/** The rows of a statement's answer, or of the last statement's when the driver answered several. */
export function rowsOf<T = Record<string, unknown>>(result: unknown): T[] {
  const last = Array.isArray(result) && result.length > 0 && "rows" in (result[result.length - 1] as object) ? result[result.length - 1] : result;
  return (last as { rows?: T[] }).rows ?? (last as T[]);
}
