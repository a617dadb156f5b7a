import { and, eq, getTableColumns, getTableName, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "#db/connect";
import { chainOutbox, chainUndo } from "#db/schema/chain";
import { loans } from "#db/schema/loans";
import { users } from "#db/schema/users";
import { bulkInsertQuery } from "./bulk";
import type { ChainEvent } from "./decode";

/**
 * A derived table: rows that events change (a note's owner, a listing's status). During a batch they live in
 * memory, loaded up front for the keys the batch's events name, and are written back with one multi-row
 * upsert per table. Every change in a block that is not yet final is journaled, so a reorg can undo it.
 */
export interface EntityDef<Row extends Record<string, unknown>> {
  table: PgTable;
  /** Primary key properties besides chainId. */
  keyFields: (keyof Row & string)[];
  /** The column that finds the rows a batch needs, and which values of it the batch's events name. */
  loadColumn: PgColumn;
  loadValues(event: ChainEvent): (string | bigint)[];
  /** Extra condition on loading (e.g. only active listings). */
  loadWhere?: SQL;
  /** A secondary lookup (e.g. the active listing of a token); null = not in the lookup. */
  indexOf?(row: Row): string | null;
}

type AnyRow = Record<string, unknown>;

export class Entities<Row extends AnyRow> {
  readonly rows = new Map<string, Row | null>();
  dirty = new Set<string>();
  /** Keys this batch wrote that did not exist before it (known only while the cache is complete). */
  created = new Set<string>();
  private readonly byIndex = new Map<string, string | null>();
  private journaledAt = new Map<string, number>();
  readonly name: string;
  private batch!: Batch;

  constructor(
    readonly def: EntityDef<Row>,
    private readonly cache: EntityCache,
  ) {
    this.name = getTableName(def.table);
  }

  /** Starts a batch: what changes from here on is that batch's to write and journal. */
  attach(batch: Batch): this {
    if (this.batch !== batch) {
      this.batch = batch;
      this.dirty = new Set();
      this.created = new Set();
      this.journaledAt = new Map();
    }
    return this;
  }

  /** True when the row of this key, or this lookup, is already known without asking the database. */
  knows(value: string): boolean {
    return this.def.indexOf ? this.byIndex.has(value) : this.rows.has(value);
  }

  get size(): number {
    return this.rows.size;
  }

  keyOf(row: Partial<Row>): string {
    const fields = this.def.keyFields;
    // Once per row a handler writes: the one-field keys (a token, an account) skip building an array.
    return fields.length === 1 ? String(row[fields[0]]) : fields.map((field) => String(row[field])).join(":");
  }

  /** The row, or undefined when it does not exist. Asking for a key the batch did not load is a bug. */
  get(...key: (string | bigint | number)[]): Row | undefined {
    const k = key.length === 1 ? String(key[0]) : key.join(":");
    if (!this.rows.has(k) && !this.cache.complete) throw new Error(`${this.name} ${k} was not loaded for this batch`);
    return this.rows.get(k) ?? undefined;
  }

  /** The row the secondary lookup names, or undefined. */
  find(indexKey: string | bigint): Row | undefined {
    const k = String(indexKey);
    if (!this.byIndex.has(k) && !this.cache.complete) throw new Error(`${this.name} lookup ${k} was not loaded for this batch`);
    const key = this.byIndex.get(k);
    return key ? (this.rows.get(key) ?? undefined) : undefined;
  }

  /** Replaces the row (handlers never mutate a row in place: the journal keeps the previous object). */
  put(row: Row, event: ChainEvent): void {
    const key = this.keyOf(row);
    const previous = this.rows.get(key) ?? null;
    const undoBlock = event.undoBlock ?? event.blockNumber;
    if (undoBlock > this.batch.finalizedBlock && this.journaledAt.get(key) !== undoBlock) {
      this.journaledAt.set(key, undoBlock);
      this.batch.journal.push({
        chainId: this.batch.chainId,
        blockNumber: undoBlock,
        tableName: this.name,
        rowKey: this.dbKey(row),
        previous: previous ? toDbJson(this.def.table, previous) : null,
      });
    }
    if (previous && this.def.indexOf) {
      const old = this.def.indexOf(previous);
      if (old !== null && this.byIndex.get(old) === key) this.byIndex.set(old, null);
    }
    if (previous === null) this.created.add(key);
    this.rows.set(key, row);
    this.dirty.add(key);
    this.remember(key, row);
  }

  /** Called while loading: the keys and lookups the batch asked for are known, found or not. */
  expect(value: string | bigint): void {
    const k = String(value);
    if (this.def.indexOf) {
      if (!this.byIndex.has(k)) this.byIndex.set(k, null);
    } else if (!this.rows.has(k)) {
      this.rows.set(k, null);
    }
  }

  loaded(row: Row): void {
    const key = this.keyOf(row);
    this.rows.set(key, row);
    this.remember(key, row);
  }

  private remember(key: string, row: Row): void {
    const indexKey = this.def.indexOf?.(row);
    if (indexKey != null) this.byIndex.set(indexKey, key);
  }

  private dbKey(row: Row): Record<string, unknown> {
    const columns = getTableColumns(this.def.table) as Record<string, PgColumn>;
    const key: Record<string, unknown> = { chain_id: this.batch.chainId };
    for (const field of this.def.keyFields) key[columns[field].name] = jsonValue(row[field]);
    return key;
  }
}

export interface OutboxMessage {
  event: string;
  payload: Record<string, unknown>;
  /** Rooms addressed directly ("marketplace", "admins", "user:<_id>"). */
  rooms?: string[];
  /** Wallets whose accounts' user rooms also receive the event (resolved when the batch is written). */
  wallets?: string[];
  /**
   * A note whose off-chain loan's id goes into the payload as `loanId`, when a loan follows it (resolved when the batch
   * is written, after the batch's own loan changes, so a loan originated in the same batch is found).
   */
  loanOf?: bigint;
}

interface PendingOutbox extends OutboxMessage {
  blockNumber: number;
  txHash: string;
  logIndex: number;
}

type JournalRow = typeof chainUndo.$inferInsert;

/**
 * The derived rows the indexer has seen, kept across batches: it is the only writer, so they stay true
 * until a rollback (which clears them). "Complete" means the mirror held nothing else when the cache
 * started (a rebuild), so a key the cache lacks does not exist and no batch needs to read the database.
 */
export class EntityCache {
  complete = false;
  private readonly sets = new Map<PgTable, Entities<AnyRow>>();

  constructor(private readonly maxRows = 200_000) {}

  entity<Row extends AnyRow>(def: EntityDef<Row>): Entities<Row> {
    let set = this.sets.get(def.table);
    if (!set) this.sets.set(def.table, (set = new Entities(def as unknown as EntityDef<AnyRow>, this)));
    return set as unknown as Entities<Row>;
  }

  clear(complete: boolean): void {
    this.sets.clear();
    this.complete = complete;
  }

  /** Between batches: past the bound, forget everything and read from the database again. */
  trim(): void {
    let rows = 0;
    for (const set of this.sets.values()) rows += set.size;
    if (rows > this.maxRows) this.clear(false);
  }
}

/** The in-memory state of one batch of blocks, and its single write. */
export class Batch {
  readonly journal: JournalRow[] = [];
  readonly inserts = new Map<PgTable, AnyRow[]>();
  readonly outbox: PendingOutbox[] = [];
  /** Accounts of the wallets the outbox names, and which wallets were looked up (found or not). */
  private readonly userOf = new Map<string, string>();
  private readonly resolved = new Set<string>();
  readonly entities = new Map<PgTable, Entities<AnyRow>>();
  /** The derived rows to write, taken when the handlers are done (the next batch may reuse the entities). */
  private upserts: { table: PgTable; keyFields: string[]; rows: AnyRow[]; created: boolean }[] = [];
  /**
   * The mirror held nothing of this chain when the cache started, and only this writer wrote since (a rebuild, a
   * first backfill): a row the cache lacks is not in the table, so rows new to it are inserted without ON CONFLICT,
   * which costs Postgres a speculative insertion per row. Anything else upserts.
   */
  readonly fresh: boolean;

  constructor(
    private readonly cache: EntityCache,
    readonly chainId: number,
    /** Changes in blocks at or below this one are final and need no undo journal. */
    readonly finalizedBlock: number,
    /** Blocks at or below this one produce no outbox rows (a rebuild replays history silently). */
    readonly silentUntil: number,
  ) {
    this.fresh = cache.complete;
  }

  entity<Row extends AnyRow>(def: EntityDef<Row>): Entities<Row> {
    const set = this.cache.entity(def).attach(this);
    this.entities.set(def.table, set as unknown as Entities<AnyRow>);
    return set;
  }

  /** Takes this batch's changed rows; called once its handlers have run. */
  seal(): void {
    this.upserts = [];
    for (const set of this.entities.values()) {
      if (set.dirty.size === 0) continue;
      const created: AnyRow[] = [];
      const changed: AnyRow[] = [];
      for (const key of set.dirty) (this.fresh && set.created.has(key) ? created : changed).push(set.rows.get(key)!);
      const { table, keyFields } = set.def;
      if (created.length > 0) this.upserts.push({ table, keyFields, rows: created, created: true });
      if (changed.length > 0) this.upserts.push({ table, keyFields, rows: changed, created: false });
    }
  }

  /** True when loading needs the database (the cache cannot answer for every key). */
  needsDatabase(defs: EntityDef<AnyRow>[], events: ChainEvent[]): boolean {
    if (this.cache.complete) return false;
    return defs.some((def) => {
      const set = this.cache.entity(def);
      return events.some((event) => def.loadValues(event).some((value) => !set.knows(String(value))));
    });
  }

  /** An append-only row keyed by (chain, tx, log index); replays skip rows already there. */
  insert(table: PgTable, row: AnyRow): void {
    let rows = this.inserts.get(table);
    if (!rows) this.inserts.set(table, (rows = []));
    rows.push(row);
  }

  emit(message: OutboxMessage, event: ChainEvent): void {
    if (event.blockNumber <= this.silentUntil) return;
    this.outbox.push({ ...message, blockNumber: event.blockNumber, txHash: event.txHash, logIndex: event.logIndex });
  }

  /** Loads the rows every registered entity needs for these events, one query per table, all at once. */
  async load(db: Db, defs: EntityDef<AnyRow>[], events: ChainEvent[]): Promise<void> {
    await Promise.all(defs.map((def) => this.loadOne(db, def, events)));
  }

  private async loadOne(db: Db, def: EntityDef<AnyRow>, events: ChainEvent[]): Promise<void> {
    const set = this.entity(def);
    if (this.cache.complete) return;
    const values = new Set<string>();
    for (const event of events) for (const value of def.loadValues(event)) if (!set.knows(String(value))) values.add(String(value));
    if (values.size === 0) return;
    for (const value of values) set.expect(value);
    const columns = getTableColumns(def.table) as Record<string, PgColumn>;
    const list = [...values];
    for (let i = 0; i < list.length; i += 5_000) {
      const chunk = list.slice(i, i + 5_000);
      const rows = await db
        .select()
        .from(def.table as never)
        .where(and(eq(columns.chainId, this.chainId), sql`${def.loadColumn} = any(${sql.param(chunk)}::${sql.raw(def.loadColumn.getSQLType())}[])`, def.loadWhere));
      for (const row of rows as AnyRow[]) set.loaded(row);
    }
  }

  /**
   * The batch's row writes, one statement per table (log rows, derived rows, undo journal), for the caller
   * to send as one data-modifying WITH statement inside its transaction: a round trip is what a busy
   * database makes expensive, not rows. Taken once: the rows are let go, so while the batch waits for its
   * commit only the statement's few long strings stay alive, not thousands of row objects for the GC to copy.
   */
  writes(): { queries: SQL[]; rows: number } {
    const queries: SQL[] = [];
    let rows = 0;
    // Log rows are above the committed cursor: in a fresh mirror none can be there yet.
    for (const [table, list] of this.inserts) {
      queries.push(bulkInsertQuery(table, list, this.fresh ? null : { doNothing: true }));
      rows += list.length;
    }
    for (const { table, keyFields, rows: list, created } of this.upserts) {
      queries.push(bulkInsertQuery(table, list, created ? null : { target: ["chainId", ...keyFields] }));
      rows += list.length;
    }
    if (this.journal.length > 0) queries.push(bulkInsertQuery(chainUndo, this.journal, { doNothing: true }));
    this.inserts.clear();
    this.upserts = [];
    this.journal.length = 0;
    return { queries, rows };
  }

  /**
   * Finds the accounts of the wallets the outbox names. Called before the batch's transaction, on any
   * connection, so the transaction itself spends no round trip on it.
   */
  async resolveWallets(db: Db): Promise<void> {
    const wallets = [...new Set(this.outbox.flatMap((message) => message.wallets ?? []))].filter((wallet) => !this.resolved.has(wallet));
    if (wallets.length === 0) return;
    const rows = await db
      .select({ id: users.id, wallet: users.walletAddress })
      .from(users)
      .where(sql`${users.walletAddress} = any(${sql.param(wallets)}::text[])`);
    for (const row of rows) if (row.wallet) this.userOf.set(row.wallet, row.id);
    for (const wallet of wallets) this.resolved.add(wallet);
  }

  /**
   * Outbox rows, addressed to the accounts of the wallets they name, and the NOTIFY that wakes the API, in one
   * statement (per 2,000 rows); nothing to do for a silent batch.
   */
  async writeOutbox(tx: Db, notify: { channel: string; payload: string }): Promise<void> {
    if (this.outbox.length === 0) return;
    await this.resolveWallets(tx); // only the wallets rows added since (normally none)
    const loanIds = await loanIdsOf(tx, this.outbox);
    const rows = this.outbox.map((message) => {
      const rooms = new Set(message.rooms ?? []);
      for (const wallet of message.wallets ?? []) {
        const userId = this.userOf.get(wallet);
        if (userId) rooms.add(`user:${userId}`);
      }
      return {
        chainId: this.chainId,
        blockNumber: message.blockNumber,
        txHash: message.txHash,
        logIndex: message.logIndex,
        event: message.event,
        rooms: [...rooms],
        payload: message.loanOf !== undefined && loanIds.has(message.loanOf) ? { ...message.payload, loanId: loanIds.get(message.loanOf) } : message.payload,
      };
    });
    const parts = chunks(
      chainOutbox,
      rows.filter((row) => row.rooms.length > 0),
    );
    for (let i = 0; i < parts.length; i++) {
      const insert = tx.insert(chainOutbox).values(parts[i]);
      await tx.execute(i < parts.length - 1 ? insert.getSQL() : sql`with w as (${insert.getSQL()}) select pg_notify(${notify.channel}, ${notify.payload})`);
    }
  }
}

/** The ids of the loans that follow the notes the outbox's messages name (`loanOf`); one query, only when one is named. */
async function loanIdsOf(tx: Db, outbox: OutboxMessage[]): Promise<Map<bigint, string>> {
  const notes = [...new Set(outbox.flatMap((message) => (message.loanOf !== undefined ? [message.loanOf] : [])))];
  const ids = new Map<bigint, string>();
  if (notes.length === 0) return ids;
  const rows = await tx
    .select({ id: loans.id, number: loans.loanNumber })
    .from(loans)
    .where(sql`${loans.loanNumber} = any(${sql.param(notes.map(String))}::numeric[]) and ${loans.nftTokenId} = ${loans.loanNumber}::text`);
  for (const row of rows) ids.set(row.number, row.id);
  return ids;
}

/** Postgres takes at most 65,535 parameters per statement. */
function chunks<T>(table: PgTable, rows: T[]): T[][] {
  const perRow = Object.keys(getTableColumns(table)).length;
  const size = Math.max(1, Math.min(2_000, Math.floor(60_000 / perRow)));
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/** A row as jsonb with database column names, the shape jsonb_populate_record reads back. */
export function toDbJson(table: PgTable, row: AnyRow): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(getTableColumns(table) as Record<string, PgColumn>)) {
    out[column.name] = jsonValue(row[field]);
  }
  return out;
}

function jsonValue(value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Date) return value.toISOString();
  return value ?? null;
}
