import { and, eq, gt, lte, sql, type SQL } from "drizzle-orm";
import { createPublicClient, http, numberToHex, type PublicClient, type RpcLog } from "viem";
import type { Db } from "#db/connect";
import {
  chainBlocks,
  chainCreditWithdrawals,
  chainCredits,
  chainCursors,
  chainListings,
  chainNotes,
  chainOutbox,
  chainRepayments,
  chainSales,
  chainTransfers,
  chainUndo,
  chainVaultMoves,
  chainVaultPositions,
} from "#db/schema/chain";
import type { Deployment } from "#domain/deployment";
import { deploymentKey, indexedContracts, type IndexedContract } from "./config";
import { makeContext } from "./context";
import { LogDecoder, type ChainEvent } from "./decode";
import { ENTITY_DEFS } from "./entities";
import { tryAcquireWriter, type Writer } from "./lock";
import { AdaptiveRange, DEFAULT_RANGE, isRangeError, type RangeLimits } from "./range";
import { bulkInsertQuery } from "./bulk";
import { rowsOf, transactionFrom } from "./begin";
import { localHeadsUrl, watchHeads, type Head, type HeadsWatch } from "./heads";
import { createLogsClient, type LogsClient } from "./logs";
import { Batch, EntityCache } from "./store";
import { applyLoanChanges, loanStatesQuery, LOAN_UNDO_TABLE, noLoansFollow, undoLoanChange, type LoanState } from "./loans";

/** Append-only log tables: a rollback deletes their rows above the common ancestor. */
const LOG_TABLES = [chainSales, chainRepayments, chainCreditWithdrawals, chainVaultMoves, chainTransfers] as const;
/** Derived tables: a rollback puts their rows back from the undo journal. */
const DERIVED_TABLES = [chainNotes, chainListings, chainVaultPositions, chainCredits] as const;
const DERIVED_NAMES = new Set(["chain_notes", "chain_listings", "chain_vault_positions", "chain_credits"]);

/** Postgres LISTEN channel the API can wait on; the payload is the chain id. */
export const OUTBOX_CHANNEL = "chain_outbox";

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
}

export interface BatchInfo {
  from: number;
  to: number;
  logs: number;
  rows: number;
  outbox: number;
}

export interface IndexerOptions {
  db: Db;
  rpcUrl: string;
  deployment: Deployment;
  /** Blocks behind the head the indexer stays (0 on the local chain). */
  confirmations?: number;
  pollIntervalMs?: number;
  /** Blocks deeper than this below the head are final: no undo journal or block hash is kept for them. */
  finalityDepth?: number;
  range?: Partial<RangeLimits>;
  logger?: Logger;
  /** After each committed batch. */
  onBatch?(info: BatchInfo): void | Promise<void>;
  /** Inside each batch's transaction, after its rows are written: a throw here rolls the batch back. */
  beforeCommit?(info: BatchInfo): void | Promise<void>;
  /**
   * The node's WebSocket URL for new heads (indexer/heads.ts), which wake the follower as soon as a block is
   * mined; null = poll only. Default: the same port for a local node (anvil, Hardhat), else none.
   */
  headsUrl?: string | null;
}

export interface IndexerStatus {
  role: "starting" | "active" | "passive" | "stopped";
  blockNumber: number | null;
  head: number | null;
  lastError: string | null;
}

export interface Indexer {
  /** Stops polling, lets the batch in flight finish or roll back, and gives up the writer lock. */
  stop(): Promise<void>;
  /** Resolves once the mirror reaches the chain's head (less confirmations) as it is when called. */
  caughtUp(): Promise<void>;
  status(): IndexerStatus;
}

interface Cursor {
  blockNumber: number;
  blockHash: string;
  silentUntil: number;
}

/** A batch whose handlers ran, with its one write statement built and waiting for its turn to commit. */
interface PreparedBatch {
  to: number;
  toHash: string;
  batch: Batch;
  info: BatchInfo;
  finalized: number;
  statement: SQL;
  /** The outbox's wallets being looked up meanwhile, on another connection. */
  wallets?: Promise<void>;
  /** Whether no loan follows the batch's notes, asked meanwhile on another connection (noLoansFollow). */
  noLoans?: Promise<boolean>;
}

interface Fetched {
  from: number;
  to: number;
  toHash: string;
  logs: RpcLog[];
}

const silentLogger: Logger = { info() {}, warn() {}, error() {} };
const ZERO_HASH = `0x${"0".repeat(64)}`;

class ChainMismatchError extends Error {}

/**
 * Follows the deployment's contracts into the mirror tables. Reorgs are handled here and only here:
 * hashes of unfinalised blocks are kept; when the chain disagrees, everything above the common ancestor
 * is undone (log rows deleted, derived rows restored from the undo journal, pushed events corrected)
 * and the blocks are replayed.
 */
export class ChainSync implements Indexer {
  private readonly client: PublicClient;
  private readonly logs: LogsClient;
  private readonly chainId: number;
  private readonly contracts: IndexedContract[];
  private readonly handlersByContract: Map<string, IndexedContract["handlers"]>;
  private readonly decoder: LogDecoder;
  private readonly range: AdaptiveRange;
  private readonly confirmations: number;
  private readonly pollIntervalMs: number;
  private readonly finalityDepth: number;
  private readonly logger: Logger;
  private readonly addresses: { loanNote: string; marketplace: string; vault: string; stablecoin: string; treasury: string };
  private readonly cache = new EntityCache();
  private cursor: Cursor | null = null;
  private head: number | null = null;
  private role: IndexerStatus["role"] = "starting";
  private lastError: string | null = null;
  private stopped = false;
  private wake: (() => void) | null = null;
  /** A poll's pause is under way, which a new head may cut short. */
  private pausing = false;
  /** A new head came while a poll was running: the next pause is skipped. */
  private headSeen = false;
  private heads: HeadsWatch | null = null;
  /** The newest head the node announced: its hash spares the fetch a round trip when it is the range's end. */
  private announced: Head | null = null;
  private loop: Promise<void> | null = null;
  private waiters: { target: number; after: number; resolve(): void; reject(error: Error): void }[] = [];
  /** Counts polls, so caughtUp() can wait for one that began after it was called. */
  private polls = 0;

  constructor(private readonly options: IndexerOptions) {
    this.client = createPublicClient({ cacheTime: 0, transport: http(options.rpcUrl, { retryCount: 2, timeout: 30_000 }) }) as PublicClient;
    this.logs = createLogsClient(options.rpcUrl);
    this.chainId = options.deployment.chainId;
    this.contracts = indexedContracts(options.deployment);
    this.handlersByContract = new Map(this.contracts.map((contract) => [contract.name, contract.handlers]));
    this.decoder = new LogDecoder(this.contracts);
    this.range = new AdaptiveRange({ ...DEFAULT_RANGE, ...options.range });
    this.confirmations = options.confirmations ?? 0;
    this.pollIntervalMs = options.pollIntervalMs ?? 1_000;
    this.finalityDepth = options.finalityDepth ?? 64;
    this.logger = options.logger ?? silentLogger;
    const { loanNote, marketplace, vault, stablecoin } = options.deployment.contracts;
    this.addresses = {
      loanNote: loanNote.toLowerCase(),
      marketplace: marketplace.toLowerCase(),
      vault: vault.toLowerCase(),
      stablecoin: stablecoin.toLowerCase(),
      treasury: options.deployment.treasury.toLowerCase(),
    };
  }

  start(): this {
    const headsUrl = this.options.headsUrl === undefined ? localHeadsUrl(this.options.rpcUrl) : this.options.headsUrl;
    if (headsUrl) this.heads = watchHeads(headsUrl, (head) => this.onHead(head), (reason) => this.logger.warn(`indexer: ${reason}`));
    this.loop = this.run();
    return this;
  }

  private onHead(head: Head): void {
    if (!this.announced || head.number >= this.announced.number) this.announced = head;
    if (this.pausing) this.wake?.();
    else this.headSeen = true;
  }

  status(): IndexerStatus {
    return { role: this.role, blockNumber: this.cursor?.blockNumber ?? null, head: this.head, lastError: this.lastError };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.heads?.close();
    this.wake?.();
    await this.loop;
    this.logs.close();
    this.role = "stopped";
    for (const waiter of this.waiters.splice(0)) waiter.reject(new Error("The indexer stopped before catching up"));
  }

  async caughtUp(): Promise<void> {
    if (this.stopped) throw new Error("The indexer is stopped");
    const target = Number(await this.client.getBlockNumber()) - this.confirmations;
    // Only a poll that starts after this call counts: an earlier one may not have seen a reorg yet.
    await new Promise<void>((resolve, reject) => {
      this.waiters.push({ target, after: this.polls, resolve, reject });
      this.wake?.();
    });
  }

  /** Rebuilds the mirror up to the head once, under the writer lock (see reindex). */
  async rebuildOnce(): Promise<void> {
    let writer: Writer | null;
    while (!(writer = await tryAcquireWriter(this.options.db, this.chainId))) await new Promise((r) => setTimeout(r, 500));
    this.role = "active";
    try {
      await this.prepare(writer.db, "reindex requested");
      while (await this.step(writer.db));
    } finally {
      await writer.release();
      this.logs.close();
      this.role = "stopped";
    }
  }

  private settleWaiters(poll: number, atTip: boolean): void {
    const reached = this.cursor?.blockNumber ?? -1;
    this.waiters = this.waiters.filter((waiter) => {
      if (poll <= waiter.after || (!atTip && reached < waiter.target)) return true;
      waiter.resolve();
      return false;
    });
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      let writer: Writer | null = null;
      try {
        writer = await tryAcquireWriter(this.options.db, this.chainId);
        if (!writer) {
          // Another indexer writes: follow its cursor so caughtUp() still answers, and try again later.
          this.role = "passive";
          const poll = ++this.polls;
          await this.readCursor(this.options.db);
          this.settleWaiters(poll, false);
          await this.sleep(Math.max(this.pollIntervalMs, 500));
          continue;
        }
        this.role = "active";
        await this.prepare(writer.db);
        while (!this.stopped && !writer.lost()) {
          const progressed = await this.step(writer.db);
          failures = 0;
          this.lastError = null;
          if (!progressed) await this.pauseBetweenPolls(this.pollIntervalMs);
        }
      } catch (error) {
        failures++;
        this.lastError = error instanceof Error ? error.message : String(error);
        // Growing pauses while the node or the database is away, each one logged so an outage shows.
        const delay = Math.min(10_000, 250 * 2 ** Math.min(failures, 6));
        this.logger.error(`indexer: ${this.lastError}; retrying in ${delay} ms`, error);
        await this.sleep(delay);
      } finally {
        if (writer) await writer.release().catch(() => {});
      }
    }
  }

  /** The pause between polls that found nothing new, which ends early when the node announces a block. */
  private async pauseBetweenPolls(ms: number): Promise<void> {
    if (this.headSeen) {
      this.headSeen = false;
      return;
    }
    this.pausing = true;
    try {
      await this.sleep(ms);
    } finally {
      this.pausing = false;
      this.headSeen = false;
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = null;
        done();
      };
    });
  }

  private async readCursor(db: Db) {
    const [row] = await db.select().from(chainCursors).where(eq(chainCursors.chainId, this.chainId));
    if (row) this.cursor = { blockNumber: row.blockNumber, blockHash: row.blockHash, silentUntil: row.silentUntil };
    return row;
  }

  private async blockHash(number: number): Promise<string> {
    if (number < 0) return ZERO_HASH;
    return (await this.client.getBlock({ blockNumber: BigInt(number) })).hash!;
  }

  /** Checks the chain is the deployment's and the mirror is of this deployment; otherwise (or when asked) starts it afresh. */
  private async prepare(db: Db, rebuild?: string): Promise<void> {
    const [genesis, row] = await Promise.all([this.blockHash(0), this.readCursor(db)]);
    if (genesis !== this.options.deployment.genesisHash) {
      throw new ChainMismatchError(
        `the chain at ${this.options.rpcUrl} (genesis ${genesis}) is not the one deployed to (genesis ${this.options.deployment.genesisHash})`,
      );
    }
    this.cache.clear(false);
    if (rebuild) return this.resetMirror(db, rebuild);
    if (!row) return this.resetMirror(db, "no mirror yet");
    if (row.genesisHash !== genesis) return this.resetMirror(db, "the chain was reset");
    if (row.deploymentKey !== deploymentKey(this.options.deployment)) return this.resetMirror(db, "the contracts were redeployed");
  }

  /**
   * Drops this chain's mirror and starts again from the deploy block. History up to the current head is
   * replayed without outbox rows: those events were pushed already, or are too old to push.
   */
  async resetMirror(db: Db, reason: string): Promise<void> {
    this.logger.info(`indexer: rebuilding the mirror of chain ${this.chainId} (${reason})`);
    const start = this.options.deployment.deployBlock - 1;
    const [startHash, head] = await Promise.all([this.blockHash(start), this.client.getBlockNumber()]);
    const cursor: Cursor = { blockNumber: start, blockHash: startHash, silentUntil: Number(head) - this.confirmations };
    const values = {
      chainId: this.chainId,
      genesisHash: this.options.deployment.genesisHash,
      deploymentKey: deploymentKey(this.options.deployment),
      ...cursor,
    };
    this.cache.clear(false);
    await db.execute(
      withWrites([
        ...clearMirrorQueries(this.chainId),
        sql`insert into ${chainCursors} (chain_id, genesis_hash, deployment_key, block_number, block_hash, silent_until)
            values (${values.chainId}, ${values.genesisHash}, ${values.deploymentKey}, ${values.blockNumber}, ${values.blockHash}, ${values.silentUntil})
            on conflict (chain_id) do update set genesis_hash = excluded.genesis_hash, deployment_key = excluded.deployment_key,
              block_number = excluded.block_number, block_hash = excluded.block_hash, silent_until = excluded.silent_until, updated_at = now()`,
      ]),
    );
    this.cursor = cursor;
    this.cache.clear(true);
  }

  /** One poll: detect a reorg, or index what is new. Answers whether anything happened. */
  private async step(db: Db): Promise<boolean> {
    const poll = ++this.polls;
    const cursor = this.cursor!;
    const announced = this.announced;
    // Both at once: one round trip to the node per idle poll. A cursor above the head answers no hash.
    const [headNumber, hashOrNull] = await Promise.all([
      this.client.getBlockNumber(),
      this.blockHash(cursor.blockNumber).catch(() => null),
    ]);
    const head = Number(headNumber);
    this.head = head;
    const target = head - this.confirmations;
    if (cursor.blockNumber > head) {
      await this.reorg(db, head, `the chain's head ${head} is below the mirror's block ${cursor.blockNumber}`);
      return true;
    }
    // The block is there (the head is above it): ask again, so a failure is reported as what it is.
    const cursorHash = hashOrNull ?? (await this.blockHash(cursor.blockNumber));
    if (cursorHash !== cursor.blockHash) {
      await this.reorg(db, head, `block ${cursor.blockNumber} changed`);
      return true;
    }
    if (cursor.blockNumber >= target) {
      this.settleWaiters(poll, true);
      return false;
    }
    await this.backfill(db, head, target, poll, announced);
    return true;
  }

  /**
   * A three-stage pipeline: the next range is fetched (the node's work) while this one runs through the
   * handlers (ours) while the previous one commits (Postgres's). Batches still commit one by one, in order.
   */
  private async backfill(db: Db, head: number, target: number, poll: number, announced: Head | null): Promise<void> {
    const finalized = head - this.finalityDepth;
    // Reads use the pool: on Postgres other connections than the writer's, on PGlite its one connection.
    const reader = this.options.db;
    let next: Promise<Fetched | null> | null = this.fetch(this.cursor!.blockNumber + 1, target, null, finalized, announced);
    let committing: Promise<void> | null = null;
    try {
      while (next) {
        const fetched: Fetched | null = await next;
        if (!fetched) break; // the parent changed under us: the next step finds the reorg
        next = fetched.to < target && !this.stopped ? this.fetch(fetched.to + 1, target, fetched.toHash, finalized, announced) : null;
        next?.catch(() => {});
        const events = this.decode(fetched.logs);
        const logCount = fetched.logs.length;
        fetched.logs = []; // the node's answer is let go once decoded (less for the GC to copy while we work)
        const batch = new Batch(this.cache, this.chainId, finalized, this.cursor!.silentUntil);
        // Reads see what the previous batch committed; on Postgres they go to other connections, side by side.
        if (batch.needsDatabase(ENTITY_DEFS, events)) await committing;
        await batch.load(reader, ENTITY_DEFS, events);
        this.runHandlers(batch, events);
        batch.seal();
        // The statement is built while the previous batch commits: our CPU and Postgres's work side by side.
        const prepared = this.prepareCommit(fetched, logCount, batch, events, finalized);
        if (reader !== db) {
          prepared.wallets = batch.resolveWallets(reader);
          prepared.noLoans = noLoansFollow(reader, batch);
          // Awaited in the commit; a failure there fails the batch.
          prepared.wallets.catch(() => {});
          prepared.noLoans.catch(() => {});
        }
        await committing;
        if (this.stopped) {
          // The batch that just committed is the last: this one is fetched again at the next start.
          this.cache.clear(false); // its handlers ran ahead of what was committed
          break;
        }
        committing = this.commit(db, prepared).then(() => this.settleWaiters(poll, false));
        committing.catch(() => {});
      }
      await committing;
    } catch (error) {
      await next?.catch(() => {});
      await committing?.catch(() => {});
      this.cache.clear(false); // it may be ahead of what was committed
      throw error;
    }
  }

  private async fetch(from: number, target: number, parentHash: string | null, finalized: number, announced: Head | null): Promise<Fetched | null> {
    let known = announced;
    for (;;) {
      const to = Math.min(target, from + this.range.span - 1);
      // The node's own answer, unformatted: the decoder reads the hex quantities it needs, and formatting
      // every log into bigints first (what getLogs does) was a good part of the fetch's time.
      const getLogs = () =>
        this.logs.getLogs({ address: this.contracts.map((contract) => contract.address), fromBlock: numberToHex(from), toBlock: numberToHex(to) });
      let toHash: string;
      let logs: RpcLog[];
      try {
        if (to <= finalized) {
          // Final blocks cannot change: header and logs may be asked for together.
          [toHash, logs] = await Promise.all([this.blockHash(to), getLogs()]);
        } else {
          // The range's last header before its logs: a reorg in between shows up as a mismatch next poll.
          // A head the node announced before this poll is such a header already.
          toHash = known?.number === to ? known.hash : await this.blockHash(to);
          if (parentHash && from - 1 > finalized && (await this.blockHash(from - 1)) !== parentHash) return null;
          logs = await getLogs();
        }
      } catch (error) {
        if (isRangeError(error) && this.range.shrink(error)) {
          this.logger.warn(`indexer: the RPC refused ${to - from + 1} blocks; asking for ${this.range.span}`);
          continue;
        }
        throw error;
      }
      if (logs.some((log) => Number(log.blockNumber) === to && log.blockHash !== toHash)) {
        known = null; // the announced block was replaced: ask the node
        continue;
      }
      this.range.grow(logs.length);
      return { from, to, toHash, logs };
    }
  }

  private decode(logs: RpcLog[]): ChainEvent[] {
    const events: ChainEvent[] = [];
    for (const log of logs) {
      const event = this.decoder.decode(log);
      if (event) events.push(event);
    }
    return events;
  }

  private runHandlers(batch: Batch, events: ChainEvent[]): void {
    let current: ChainEvent = events[0];
    const ctx = makeContext(batch, this.chainId, this.addresses, () => current);
    for (const event of events) {
      current = event;
      this.handlersByContract.get(event.contract)?.[event.name]?.(event, ctx);
    }
  }

  /**
   * The batch's one statement that writes every table and moves the cursor. Batches commit without waiting for
   * the WAL flush (docs/decisions.md): a Postgres crash can then only lose whole batches, cursor included, which
   * are fetched again; and nothing is pushed for a batch before it is durable, since the API's claim of its
   * outbox rows commits synchronously, which flushes the WAL up to and past the batch's commit.
   */
  private prepareCommit(fetched: Fetched, logCount: number, batch: Batch, events: ChainEvent[], finalized: number): PreparedBatch {
    const hashes = new Map<number, string>([[fetched.to, fetched.toHash]]);
    for (const event of events) if (event.blockNumber > finalized) hashes.set(event.blockNumber, event.blockHash);
    const info: BatchInfo = { from: fetched.from, to: fetched.to, logs: logCount, rows: 0, outbox: batch.outbox.length };
    const { queries, rows } = batch.writes();
    info.rows = rows;
    const blocks = [...hashes].map(([number, hash]) => ({ chainId: this.chainId, number, hash }));
    queries.push(
      bulkInsertQuery(chainBlocks, blocks, { target: ["chainId", "number"] }),
      // Disjoint from the rows above: those are the range's last block and unfinalised ones.
      sql`delete from ${chainBlocks} where ${chainBlocks.chainId} = ${this.chainId} and ${chainBlocks.number} <= ${Math.min(finalized, fetched.to - 1)}`,
      sql`delete from ${chainUndo} where ${chainUndo.chainId} = ${this.chainId} and ${chainUndo.blockNumber} <= ${finalized}`,
      sql`update ${chainCursors} set block_number = ${fetched.to}, block_hash = ${fetched.toHash}, updated_at = now() where ${chainCursors.chainId} = ${this.chainId}`,
    );
    // The loans this batch may change come back with the statement's answer: no read of its own in the transaction.
    const loanStates = loanStatesQuery(batch);
    const last = sql`select set_config('synchronous_commit', 'off', true)${loanStates ? sql`, ${loanStates} as loan_states` : sql``}`;
    return { to: fetched.to, toHash: fetched.toHash, batch, info, finalized, statement: withWrites(queries, last) };
  }

  /** One transaction: BEGIN, the statement, the loans' and outbox's rows when there are any, COMMIT. */
  private async commit(db: Db, prepared: PreparedBatch): Promise<void> {
    const { batch, info, finalized } = prepared;
    const rest = async (t: Db, rows: Record<string, unknown>[]) => {
      await applyLoanChanges(t, batch, finalized, rows[0]?.loan_states as LoanState[] | undefined);
      await prepared.wallets;
      await batch.writeOutbox(t, { channel: OUTBOX_CHANNEL, payload: String(this.chainId) });
      await this.options.beforeCommit?.(info);
    };
    if (db !== this.options.db) {
      // The writer's own Postgres connection: BEGIN goes with the statement (indexer/begin.ts), and COMMIT too when
      // nothing follows it (no outbox rows, no loan to move): the backfill of history is one round trip a batch.
      const alone = batch.outbox.length === 0 && !this.options.beforeCommit && (await prepared.noLoans);
      await transactionFrom(db, prepared.statement, alone ? null : rest);
    } else {
      // PGlite, one connection for everyone: its transaction keeps the API's queries out while it runs.
      await db.transaction(async (tx) => {
        await rest(tx as unknown as Db, rowsOf(await tx.execute(prepared.statement)));
      });
    }
    this.cursor = { ...this.cursor!, blockNumber: prepared.to, blockHash: prepared.toHash };
    this.cache.trim();
    await this.options.onBatch?.(info);
  }

  /** Finds the newest kept block the chain still has, and rolls the mirror back to it. */
  private async reorg(db: Db, head: number, why: string): Promise<void> {
    const cursor = this.cursor!;
    const kept = await db
      .select({ number: chainBlocks.number, hash: chainBlocks.hash })
      .from(chainBlocks)
      .where(and(eq(chainBlocks.chainId, this.chainId), lte(chainBlocks.number, Math.min(cursor.blockNumber, head))))
      .orderBy(sql`${chainBlocks.number} desc`);
    let ancestor: { number: number; hash: string } | null = null;
    for (let i = 0; i < kept.length && !ancestor; i += 16) {
      const slice = kept.slice(i, i + 16);
      const hashes = await Promise.all(slice.map((block) => this.blockHash(block.number).catch(() => null)));
      ancestor = slice.find((block, j) => hashes[j] === block.hash) ?? null;
    }
    if (!ancestor) {
      const genesis = await this.blockHash(0);
      if (genesis !== this.options.deployment.genesisHash) {
        await this.resetMirror(db, "the chain was reset");
        throw new ChainMismatchError(`the chain at ${this.options.rpcUrl} was reset; waiting for its deployment`);
      }
      return this.resetMirror(db, `${why}, deeper than the ${this.finalityDepth} blocks kept`);
    }
    this.logger.warn(`indexer: reorg (${why}); rolling back from ${cursor.blockNumber} to ${ancestor.number}`);
    this.cache.clear(false);
    await db.transaction((tx) => rollback(tx as unknown as Db, this.chainId, ancestor));
    this.cursor = { ...cursor, blockNumber: ancestor.number, blockHash: ancestor.hash };
  }
}

/** Undoes everything above `ancestor` in one transaction; pushed events above it get correction rows. */
export async function rollback(db: Db, chainId: number, ancestor: { number: number; hash: string }): Promise<void> {
  const undo = await db
    .select()
    .from(chainUndo)
    .where(and(eq(chainUndo.chainId, chainId), gt(chainUndo.blockNumber, ancestor.number)))
    .orderBy(sql`${chainUndo.id} desc`);
  for (const entry of undo) {
    if (entry.tableName === LOAN_UNDO_TABLE) {
      await undoLoanChange(db, entry.rowKey as Record<string, unknown>, entry.previous);
      continue;
    }
    if (!DERIVED_NAMES.has(entry.tableName)) throw new Error(`unknown table ${entry.tableName} in the undo journal`);
    const table = sql.identifier(entry.tableName);
    const key = entry.rowKey as Record<string, unknown>;
    const match = sql.join(
      Object.keys(key).map((column) => sql`t.${sql.identifier(column)} = k.${sql.identifier(column)}`),
      sql` and `,
    );
    await db.execute(sql`delete from ${table} t using jsonb_populate_record(null::${table}, ${JSON.stringify(key)}::jsonb) k where ${match}`);
    if (entry.previous) {
      await db.execute(sql`insert into ${table} select * from jsonb_populate_record(null::${table}, ${JSON.stringify(entry.previous)}::jsonb)`);
    }
  }
  await db.delete(chainUndo).where(and(eq(chainUndo.chainId, chainId), gt(chainUndo.blockNumber, ancestor.number)));
  for (const table of LOG_TABLES) {
    await db.delete(table).where(and(eq(table.chainId, chainId), gt(table.blockNumber, ancestor.number)));
  }
  await db.delete(chainBlocks).where(and(eq(chainBlocks.chainId, chainId), gt(chainBlocks.number, ancestor.number)));
  await db.execute(sql`
    insert into chain_outbox (chain_id, block_number, tx_hash, log_index, event, rooms, payload, kind, corrects_id)
    select chain_id, block_number, tx_hash, log_index, event, rooms, payload || '{"reverted": true}'::jsonb, 'correction', id
    from chain_outbox
    where chain_id = ${chainId} and block_number > ${ancestor.number} and kind = 'event' and not reverted
    order by id`);
  const corrected = await db
    .update(chainOutbox)
    .set({ reverted: true })
    .where(
      and(eq(chainOutbox.chainId, chainId), gt(chainOutbox.blockNumber, ancestor.number), eq(chainOutbox.kind, "event"), eq(chainOutbox.reverted, false)),
    )
    .returning({ id: chainOutbox.id });
  await db
    .update(chainCursors)
    .set({ blockNumber: ancestor.number, blockHash: ancestor.hash, updatedAt: new Date() })
    .where(eq(chainCursors.chainId, chainId));
  if (corrected.length > 0) await db.execute(sql`select pg_notify(${OUTBOX_CHANNEL}, ${String(chainId)})`);
}

/** Deletes one chain's mirror; outbox rows stay (the API may still deliver them) but are marked reverted. */
export async function clearMirror(db: Db, chainId: number): Promise<void> {
  await db.execute(withWrites(clearMirrorQueries(chainId)));
}

function clearMirrorQueries(chainId: number): SQL[] {
  const tables = [...LOG_TABLES, ...DERIVED_TABLES, chainBlocks, chainUndo] as unknown as (typeof chainBlocks)[];
  return [
    ...tables.map((table) => sql`delete from ${table} where ${table.chainId} = ${chainId}`),
    sql`update ${chainOutbox} set reverted = true where ${chainOutbox.chainId} = ${chainId} and not ${chainOutbox.reverted}`,
  ];
}

/**
 * Several writes as one statement (data-modifying WITH clauses), atomic without a transaction of its own
 * and one round trip: each must touch rows the others do not, as they all see the same snapshot.
 */
function withWrites(queries: SQL[], last: SQL = sql`select 1`): SQL {
  const writes = sql.join(
    queries.map((query, i) => sql`${sql.identifier(`w${i}`)} as (${query})`),
    sql`, `,
  );
  return sql`with ${writes} ${last}`;
}

export function startIndexer(options: IndexerOptions): Indexer {
  return new ChainSync(options).start();
}
