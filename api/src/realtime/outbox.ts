import { eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "#db/connect";
import { outboxDeliveries, type NotificationRow } from "#db/schema";
import { ROOMS, SERVER_EVENTS } from "#domain/events";
import type { NotificationsRepository } from "../notifications/repository";
import { livePayload } from "../notifications/wire";
import { notificationsForOutbox } from "./outboxNotifications";
import { OUTBOX_PRUNE_INTERVAL_MS, OUTBOX_RETENTION_MS, pruneOutbox } from "./outboxPrune";
import type { Publisher } from "./publisher";

/** Raised by the trigger of migration 0002 when a transaction that wrote outbox rows commits. */
export const OUTBOX_WAKE_CHANNEL = "outbox_deliveries";
/** Arbitrary but fixed: one API process at a time claims, so events leave in outbox order. */
const CLAIM_LOCK_ID = 724_113_101;

interface Emission {
  rooms: string | string[];
  name: string;
  payload: unknown;
}

export interface OutboxDeliveryOptions {
  db: Db;
  kind: "postgres" | "pglite";
  publisher: Publisher;
  notifications: NotificationsRepository;
  /** Fallback wake-up when no notification arrives (and the only one if LISTEN fails). */
  pollMs?: number;
  batchSize?: number;
  /** Delivered rows older than this are pruned (outboxPrune.ts); default a day. */
  retentionMs?: number;
  pruneIntervalMs?: number;
  logger?: { warn(obj: unknown, msg?: string): void; debug?(obj: unknown, msg?: string): void };
}

export interface OutboxDelivery {
  /** Delivers everything pending now; resolves when nothing is left (or another process holds the claim). */
  deliverNow(): Promise<void>;
  /** Hears the events this process pushed, after their claim committed (a listener's failure is its own). */
  onDelivered(listener: (rows: { event: string; payload: unknown }[]) => void): void;
  stop(): Promise<void>;
}

type Client = { listen?: (channel: string, cb: () => void) => Promise<() => Promise<void>>; connect?: () => Promise<PoolClient> };
type PoolClient = {
  query(text: string): Promise<unknown>;
  on(event: "notification", cb: () => void): void;
  on(event: "error", cb: (error: Error) => void): void;
  release(error?: Error | boolean): void;
};

const rowsOf = <T>(result: unknown): T[] => (result as { rows?: T[] }).rows ?? (result as T[]);

/** What the claim statement answers: one row per claimed id (all null but ok when nothing was claimed). */
interface ClaimedRow {
  ok: boolean;
  outbox_id: string | number | null;
  emitted: boolean;
  kind: "event" | "correction" | null;
  chain_id: number;
  event: string;
  rooms: string[];
  payload: Record<string, unknown>;
  /** For a correction: the notifications its event stored. */
  withdrawn: string[] | null;
}

/**
 * Locks the claim (Postgres: one process at a time, so events leave in outbox order), stamps the oldest pending
 * rows delivered, and marks which are pushed: an event not reverted, or a correction whose event was pushed (as
 * recorded before this statement: an event claimed with its own correction was reverted, so never pushed).
 */
function claimQuery(kind: "postgres" | "pglite", batchSize: number): SQL {
  const lock = kind === "postgres" ? sql`pg_try_advisory_xact_lock(${CLAIM_LOCK_ID})` : sql`true`;
  return sql`
    with lock as materialized (select ${lock} as ok),
    pending as (
      select outbox_id from outbox_deliveries
      where delivered_at is null and (select ok from lock)
      order by outbox_id limit ${batchSize} for update skip locked),
    claimed as (
      update outbox_deliveries d
      set delivered_at = now(), emitted = coalesce(case when o.kind = 'correction' then e.emitted else not o.reverted end, false)
      from pending p
        left join chain_outbox o on o.id = p.outbox_id
        left join outbox_deliveries e on e.outbox_id = o.corrects_id
      where d.outbox_id = p.outbox_id
      returning d.outbox_id, d.emitted, o.kind, o.chain_id, o.event, o.rooms, o.payload, e.notification_ids as withdrawn)
    select (select ok from lock) as ok, c.* from (select 1) as one left join claimed c on true
    order by c.outbox_id`;
}

/**
 * Pushes the indexer's outbox rows to socket.io rooms: each row once
 * per set of API processes, in id order, only after its transaction committed. The claim, the delivered stamp and
 * the stored notifications commit together; the emits follow the commit, so a crash in between loses a live push
 * but never a stored notification, and never sends an event twice.
 */
export function startOutboxDelivery(options: OutboxDeliveryOptions): OutboxDelivery {
  const { db, kind, publisher, notifications } = options;
  const batchSize = options.batchSize ?? 200;
  let stopped = false;
  const listeners: ((rows: { event: string; payload: unknown }[]) => void)[] = [];
  let running: Promise<void> | null = null;
  let again = false;
  let unlisten: (() => Promise<void>) | null = null;
  let listener: PoolClient | null = null;
  let relisten: NodeJS.Timeout | null = null;

  /**
   * One claim transaction: how many rows it took and what to emit; null when another process holds the claim. Its one
   * statement takes the lock, stamps the oldest pending rows and decides which are pushed, so an event costs the
   * delivery three round trips (BEGIN, the claim, COMMIT) plus its notifications' own.
   */
  async function claimOnce(): Promise<{ claimed: number; emissions: Emission[] } | null> {
    return db.transaction(async (tx) => {
      const result = rowsOf<ClaimedRow>(await tx.execute(claimQuery(kind, batchSize)));
      if (!result[0]?.ok) return null;
      // A claimed id whose outbox row is gone is simply stamped: there is nothing to push.
      const claimed = result.filter((row) => row.outbox_id != null);
      const emissions: Emission[] = [];
      let investors: string[] | null = null;
      let admins: string[] | null = null;
      for (let row of claimed) {
        // Not pushed: reverted before it ever was, or the correction of an event nobody saw.
        if (!row.emitted) continue;
        if (row.event === SERVER_EVENTS.collateralUpdate) row = await withCollectionName(row, tx as Db);
        emissions.push({ rooms: row.rooms, name: row.event, payload: row.payload });
        if (row.kind === "correction") {
          // The notices of an event the chain took back are withdrawn; the replayed block brings its own.
          await notifications.deleteIds(row.withdrawn ?? [], tx as Db);
          continue;
        }
        const stored: NotificationRow[] = [];
        for (const planned of notificationsForOutbox(row)) {
          let userIds: string[];
          let content = planned.content;
          if (planned.recipients.kind === "orderSigner") {
            const signer = await notifications.orderSigner(planned.recipients.hash, tx as Db);
            userIds = signer?.userId ? [signer.userId] : [];
            if (signer && signer.kind !== "listing") content = planned.recipients.offerContent;
          } else if (planned.recipients.kind === "investors") {
            const except = new Set(planned.recipients.exceptUserIds);
            const borrower = await notifications.borrowerOfNote(planned.recipients.exceptBorrowerOf, tx as Db);
            if (borrower) except.add(borrower);
            investors ??= await notifications.investorIds(tx as Db);
            userIds = investors.filter((id) => !except.has(id));
          } else {
            userIds = planned.recipients.userIds;
            if (planned.recipients.admins) userIds = [...new Set([...userIds, ...(admins ??= await notifications.adminIds(tx as Db))])];
          }
          stored.push(...(await notifications.insertFor(userIds, content, tx as Db)));
          if (planned.adminEvent) emissions.push({ rooms: ROOMS.admins, name: planned.adminEvent.name, payload: planned.adminEvent.payload });
        }
        for (const notification of stored) {
          emissions.push({ rooms: ROOMS.user(notification.userId), name: SERVER_EVENTS.notificationNew, payload: livePayload(notification) });
        }
        if (stored.length > 0) {
          await tx
            .update(outboxDeliveries)
            .set({ notificationIds: stored.map((notification) => notification.id) })
            .where(eq(outboxDeliveries.outboxId, Number(row.outbox_id)));
        }
      }
      return { claimed: claimed.length, emissions };
    });
  }

  /** A moved NFT's event, named by its collection for the notice stored now and the toast pushed after the commit. */
  async function withCollectionName(row: ClaimedRow, tx: Db): Promise<ClaimedRow> {
    const { collection, collateralId } = row.payload as { collection?: unknown; collateralId?: unknown };
    if (typeof collection !== "string" || typeof collateralId !== "string") return row;
    const collectionName = await notifications.collectionName(row.chain_id, collection, collateralId, tx);
    return { ...row, payload: { ...row.payload, collectionName } };
  }

  /** Claims batches until none is left; emits each batch after its commit. */
  async function drain(): Promise<void> {
    for (;;) {
      again = false;
      const before = Date.now();
      const batch = await claimOnce();
      if (batch === null) {
        // Another process is delivering; look again shortly in case it finished just before our rows committed.
        if (!stopped) setTimeout(kick, 50).unref();
        return;
      }
      for (const emission of batch.emissions) publisher.emit(emission.rooms, emission.name, emission.payload);
      if (batch.emissions.length > 0) for (const listener of listeners) listener(batch.emissions.map((e) => ({ event: e.name, payload: e.payload })));
      if (batch.claimed > 0) options.logger?.debug?.({ rows: batch.claimed, events: batch.emissions.length, ms: Date.now() - before }, "outbox delivered");
      // A short batch took every row pending then; rows committed since sent a NOTIFY, which set `again`.
      if (batch.claimed < batchSize && !again) return;
      if (stopped) return;
    }
  }

  function kick(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = drain()
      .catch((error) => {
        if (!stopped) options.logger?.warn({ err: error }, "outbox delivery failed; retrying on the next poll");
      })
      .finally(() => {
        running = null;
        if (again && !stopped) kick();
      });
  }

  // A connection destroyed on stop() still emits "error" afterwards; pg throws if it is released twice.
  const released = new WeakSet<object>();
  const release = (connection: { release(error?: Error | boolean): void }, error: Error | boolean) => {
    if (released.has(connection)) return;
    released.add(connection);
    connection.release(error);
  };

  async function listen(): Promise<void> {
    const client = (db as unknown as { $client: Client }).$client;
    try {
      if (kind === "pglite" && client.listen) {
        unlisten = await client.listen(OUTBOX_WAKE_CHANNEL, kick);
      } else if (client.connect) {
        const connection = await client.connect();
        connection.on("notification", kick);
        connection.on("error", (error) => {
          // A lost listening connection is replaced; until then the poll carries delivery.
          options.logger?.warn({ err: error }, "outbox listener lost");
          release(connection, error);
          if (listener === connection) listener = null;
          if (!stopped) relisten = setTimeout(() => void listen(), 1000);
        });
        await connection.query(`LISTEN ${OUTBOX_WAKE_CHANNEL}`);
        if (stopped) release(connection, true);
        else listener = connection;
      }
    } catch (error) {
      options.logger?.warn({ err: error }, "outbox LISTEN unavailable; delivering by polling");
      if (!stopped && kind === "postgres") relisten = setTimeout(() => void listen(), 5000);
    }
    kick();
  }

  const poll = setInterval(kick, options.pollMs ?? 250);
  poll.unref();
  void listen();

  // Delivered rows are kept a while, then pruned, so the outbox does not grow forever.
  let pruning: Promise<unknown> | null = null;
  const pruner = setInterval(() => {
    if (pruning || stopped) return;
    const before = new Date(Date.now() - (options.retentionMs ?? OUTBOX_RETENTION_MS));
    pruning = pruneOutbox(db, before)
      .then((pruned) => pruned > 0 && options.logger?.debug?.({ pruned }, "outbox pruned"))
      .catch((error) => options.logger?.warn({ err: error }, "outbox pruning failed; trying again later"))
      .finally(() => (pruning = null));
  }, options.pruneIntervalMs ?? OUTBOX_PRUNE_INTERVAL_MS);
  pruner.unref();

  return {
    onDelivered(listener) {
      listeners.push(listener);
    },
    async deliverNow() {
      if (running) await running;
      kick();
      while (running) await running;
    },
    async stop() {
      stopped = true;
      clearInterval(poll);
      clearInterval(pruner);
      if (pruning) await pruning;
      if (relisten) clearTimeout(relisten);
      if (running) await running.catch(() => {});
      if (unlisten) await unlisten().catch(() => {});
      if (listener) {
        const connection = listener;
        listener = null;
        await connection.query(`UNLISTEN ${OUTBOX_WAKE_CHANNEL}`).catch(() => {});
        release(connection, true);
      }
    },
  };
}
