import { eq } from "drizzle-orm";
import type { Db } from "#db/connect";
import { chainCursors } from "#db/schema/chain";
import { backfill } from "./backfill";
import { loadFollowedCollections } from "./collections";
import { cachedCoverage } from "./logCache";
import { deploymentKey } from "./config";
import { localHeadsUrl, watchHeads, type Head, type HeadsWatch } from "./heads";
import { tryAcquireWriter, type Writer } from "./lock";
import { resetMirror } from "./mirror";
import type { Indexer, IndexerOptions, IndexerStatus } from "./options";
import { forgetChain, undoReorg } from "./reorg";
import { cacheLogSource, nodeSource } from "./sources";
import { ChainMismatchError, SyncState } from "./state";

export { OUTBOX_CHANNEL, type BatchInfo, type Indexer, type IndexerOptions, type IndexerStatus, type Logger } from "./options";

/**
 * Follows the deployment's contracts into the mirror tables: holds the writer lock (or follows another writer's
 * cursor), polls the head, and at each poll either finds a reorg (undone by reorg.ts) or backfills what is new
 * (backfill.ts, each batch committed by commit.ts).
 */
export class ChainSync implements Indexer {
  private readonly state: SyncState;
  private readonly pollIntervalMs: number;
  private head: number | null = null;
  private role: IndexerStatus["role"] = "starting";
  private lastError: string | null = null;
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
    this.state = new SyncState(options);
    this.pollIntervalMs = options.pollIntervalMs ?? 1_000;
  }

  start(): this {
    const headsUrl = this.options.headsUrl === undefined ? localHeadsUrl(this.options.rpcUrl) : this.options.headsUrl;
    if (headsUrl)
      this.heads = watchHeads(
        headsUrl,
        (head) => this.onHead(head),
        (reason) => this.state.logger.warn(`indexer: ${reason}`),
      );
    this.loop = this.run();
    return this;
  }

  private onHead(head: Head): void {
    if (!this.announced || head.number >= this.announced.number) this.announced = head;
    if (this.pausing) this.wake?.();
    else this.headSeen = true;
  }

  status(): IndexerStatus {
    return { role: this.role, blockNumber: this.state.cursor?.blockNumber ?? null, head: this.head, lastError: this.lastError };
  }

  async stop(): Promise<void> {
    this.state.stopped = true;
    this.heads?.close();
    this.wake?.();
    await this.loop;
    this.state.logs.close();
    this.role = "stopped";
    for (const waiter of this.waiters.splice(0)) waiter.reject(new Error("The indexer stopped before catching up"));
  }

  async caughtUp(): Promise<void> {
    if (this.state.stopped) throw new Error("The indexer is stopped");
    const target = Number(await this.state.client.getBlockNumber()) - this.state.confirmations;
    // Only a poll that starts after this call counts: an earlier one may not have seen a reorg yet.
    await new Promise<void>((resolve, reject) => {
      this.waiters.push({ target, after: this.polls, resolve, reject });
      this.wake?.();
    });
  }

  /**
   * Rebuilds the mirror once, under the writer lock (see reindex): up to where it reached, from the log cache as far
   * as the cache goes without asking the node anything; past the cache (or with none), from the node up to the head.
   */
  async rebuildOnce(): Promise<void> {
    let writer: Writer | null;
    while (!(writer = await tryAcquireWriter(this.options.db, this.state.chainId))) await new Promise((r) => setTimeout(r, 500));
    this.role = "active";
    try {
      const reached = (await this.readCursor(writer.db))?.blockNumber ?? -1;
      const covered = await this.rebuildFromCache(writer.db);
      if (covered !== null && covered >= reached) return;
      if (covered === null) await this.prepare(writer.db, "reindex requested");
      else await this.prepare(writer.db);
      while (await this.step(writer.db));
    } finally {
      await writer.release();
      this.state.logs.close();
      this.role = "stopped";
    }
  }

  /** The mirror rebuilt from the cache's ranges that follow each other from the deploy block: the block reached, or null. */
  private async rebuildFromCache(db: Db): Promise<number | null> {
    const coverage = await cachedCoverage(db, this.state);
    if (!coverage) return null;
    const { chunks, parentHash } = coverage;
    const end = chunks[chunks.length - 1].to;
    const start = { blockNumber: this.options.deployment.deployBlock - 1, blockHash: parentHash, silentUntil: end };
    await resetMirror(this.state, db, "reindex requested, from the log cache", start);
    // The cache's end stands in for the head: blocks nearer to it keep their hashes, so a reorg found later is undone.
    const finalized = end - this.state.finalityDepth;
    await backfill(this.state, db, { source: cacheLogSource(this.state, db, chunks), target: end, finalized }, () => {});
    return end;
  }

  private settleWaiters(poll: number, atTip: boolean): void {
    const reached = this.state.cursor?.blockNumber ?? -1;
    this.waiters = this.waiters.filter((waiter) => {
      if (poll <= waiter.after || (!atTip && reached < waiter.target)) return true;
      waiter.resolve();
      return false;
    });
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.state.stopped) {
      let writer: Writer | null = null;
      try {
        writer = await tryAcquireWriter(this.options.db, this.state.chainId);
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
        while (!this.state.stopped && !writer.lost()) {
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
        this.state.logger.error(`indexer: ${this.lastError}; retrying in ${delay} ms`, error);
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
    if (this.state.stopped) return Promise.resolve();
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
    const [row] = await db.select().from(chainCursors).where(eq(chainCursors.chainId, this.state.chainId));
    if (row) this.state.cursor = { blockNumber: row.blockNumber, blockHash: row.blockHash, silentUntil: row.silentUntil };
    return row;
  }

  /** Checks the chain is the deployment's and the mirror is of this deployment; otherwise (or when asked) starts it afresh. */
  private async prepare(db: Db, rebuild?: string): Promise<void> {
    const { deployment } = this.options;
    const [genesis, row] = await Promise.all([this.state.blockHash(0), this.readCursor(db)]);
    if (genesis !== deployment.genesisHash) {
      throw new ChainMismatchError(`the chain at ${this.options.rpcUrl} (genesis ${genesis}) is not the one deployed to (genesis ${deployment.genesisHash})`);
    }
    this.state.cache.clear(false);
    if (rebuild) return resetMirror(this.state, db, rebuild);
    if (!row) return resetMirror(this.state, db, "no mirror yet");
    if (row.genesisHash !== genesis) {
      await forgetChain(this.state, db);
      return resetMirror(this.state, db, "the chain was reset");
    }
    if (row.deploymentKey !== deploymentKey(deployment)) return resetMirror(this.state, db, "the contracts were redeployed, or the mirror follows more now");
    await loadFollowedCollections(this.state, db);
  }

  /** One poll: detect a reorg, or index what is new. Answers whether anything happened. */
  private async step(db: Db): Promise<boolean> {
    const poll = ++this.polls;
    const cursor = this.state.cursor!;
    const announced = this.announced;
    // Both at once: one round trip to the node per idle poll. A cursor above the head answers no hash.
    const [headNumber, hashOrNull] = await Promise.all([this.state.client.getBlockNumber(), this.state.blockHash(cursor.blockNumber).catch(() => null)]);
    const head = Number(headNumber);
    this.head = head;
    const target = head - this.state.confirmations;
    if (cursor.blockNumber > head) {
      await undoReorg(this.state, db, head, `the chain's head ${head} is below the mirror's block ${cursor.blockNumber}`);
      return true;
    }
    // The block is there (the head is above it): ask again, so a failure is reported as what it is.
    const cursorHash = hashOrNull ?? (await this.state.blockHash(cursor.blockNumber));
    if (cursorHash !== cursor.blockHash) {
      await undoReorg(this.state, db, head, `block ${cursor.blockNumber} changed`);
      return true;
    }
    if (cursor.blockNumber >= target) {
      this.settleWaiters(poll, true);
      return false;
    }
    const finalized = head - this.state.finalityDepth;
    const source = nodeSource(this.state, target, finalized, announced);
    await backfill(this.state, db, { source, target, finalized }, () => this.settleWaiters(poll, false));
    return true;
  }
}

export function startIndexer(options: IndexerOptions): Indexer {
  return new ChainSync(options).start();
}
