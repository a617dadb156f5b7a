import { asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../../db/connect";
import { chainOutbox, outboxDeliveries, type NotificationRow } from "../../../db/schema";
import { ROOMS, SERVER_EVENTS } from "../../../domain/events";
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
  stop(): Promise<void>;
}

type Client = { listen?: (channel: string, cb: () => void) => Promise<() => Promise<void>>; connect?: () => Promise<PoolClient> };
type PoolClient = {
  query(text: string): Promise<unknown>;
  on(event: "notification", cb: () => void): void;
  on(event: "error", cb: (error: Error) => void): void;
  release(error?: Error | boolean): void;
};

const rowsOf = <T>(result: unknown): T[] => ((result as { rows?: T[] }).rows ?? (result as T[]));

/**
 * Pushes the indexer's outbox rows to socket.io rooms (DESIGN.md "The parts and how data flows"): each row once
 * per set of API processes, in id order, only after its transaction committed. The claim, the delivered stamp and
 * the stored notifications commit together; the emits follow the commit, so a crash in between loses a live push
 * but never a stored notification, and never sends an event twice.
 */
export function startOutboxDelivery(options: OutboxDeliveryOptions): OutboxDelivery {
  const { db, kind, publisher, notifications } = options;
  const batchSize = options.batchSize ?? 200;
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  let unlisten: (() => Promise<void>) | null = null;
  let listener: PoolClient | null = null;
  let relisten: NodeJS.Timeout | null = null;

  /** One claim transaction: how many rows it took and what to emit; null when another process holds the claim. */
  async function claimOnce(): Promise<{ claimed: number; emissions: Emission[] } | null> {
    return db.transaction(async (tx) => {
      if (kind === "postgres") {
        const [{ ok }] = rowsOf<{ ok: boolean }>(await tx.execute(sql`select pg_try_advisory_xact_lock(${CLAIM_LOCK_ID}) as ok`));
        if (!ok) return null;
      }
      const claimed = rowsOf<{ outbox_id: string | number }>(
        await tx.execute(sql`
          update outbox_deliveries set delivered_at = now()
          where outbox_id in (
            select outbox_id from outbox_deliveries where delivered_at is null
            order by outbox_id limit ${batchSize} for update skip locked)
          returning outbox_id`),
      );
      if (claimed.length === 0) return { claimed: 0, emissions: [] };
      const ids = claimed.map((row) => Number(row.outbox_id));
      const rows = await tx.select().from(chainOutbox).where(inArray(chainOutbox.id, ids)).orderBy(asc(chainOutbox.id));

      // Whether each corrected event was pushed: a correction of an event nobody saw is not sent either.
      const corrected = rows.flatMap((row) => (row.kind === "correction" && row.correctsId != null ? [row.correctsId] : []));
      const earlier = corrected.length
        ? await tx.select().from(outboxDeliveries).where(inArray(outboxDeliveries.outboxId, corrected))
        : [];
      const seen = new Map(earlier.map((row) => [row.outboxId, row]));

      const emissions: Emission[] = [];
      const emitted: number[] = [];
      let investors: string[] | null = null;
      let admins: string[] | null = null;
      for (const row of rows) {
        if (row.kind === "correction") {
          const original = row.correctsId != null ? seen.get(row.correctsId) : undefined;
          if (!original?.emitted) continue;
          emitted.push(row.id);
          emissions.push({ rooms: row.rooms, name: row.event, payload: row.payload });
          // The notices of an event the chain took back are withdrawn; the replayed block brings its own.
          await notifications.deleteIds(original.notificationIds, tx as Db);
          continue;
        }
        // Reverted before it was ever pushed: nothing to say, now or later.
        if (row.reverted) {
          seen.set(row.id, { outboxId: row.id, deliveredAt: new Date(), emitted: false, notificationIds: [] });
          continue;
        }
        emitted.push(row.id);
        seen.set(row.id, { outboxId: row.id, deliveredAt: new Date(), emitted: true, notificationIds: [] });
        emissions.push({ rooms: row.rooms, name: row.event, payload: row.payload });

        const stored: NotificationRow[] = [];
        for (const planned of notificationsForOutbox(row)) {
          let userIds: string[];
          if (planned.recipients.kind === "investors") {
            const except = new Set(planned.recipients.exceptUserIds);
            investors ??= await notifications.investorIds(tx as Db);
            userIds = investors.filter((id) => !except.has(id));
          } else {
            userIds = planned.recipients.userIds;
            if (planned.recipients.admins) userIds = [...new Set([...userIds, ...(admins ??= await notifications.adminIds(tx as Db))])];
          }
          stored.push(...(await notifications.insertFor(userIds, planned.content, tx as Db)));
          if (planned.adminEvent) emissions.push({ rooms: ROOMS.admins, name: planned.adminEvent.name, payload: planned.adminEvent.payload });
        }
        for (const notification of stored) {
          emissions.push({ rooms: ROOMS.user(notification.userId), name: SERVER_EVENTS.notificationNew, payload: livePayload(notification) });
        }
        if (stored.length > 0) {
          await tx
            .update(outboxDeliveries)
            .set({ notificationIds: stored.map((notification) => notification.id) })
            .where(eq(outboxDeliveries.outboxId, row.id));
        }
      }
      if (emitted.length > 0) await tx.update(outboxDeliveries).set({ emitted: true }).where(inArray(outboxDeliveries.outboxId, emitted));
      // A claimed id whose outbox row is gone is simply stamped: there is nothing to push.
      return { claimed: claimed.length, emissions };
    });
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
      if (batch.claimed > 0) options.logger?.debug?.({ rows: batch.claimed, events: batch.emissions.length, ms: Date.now() - before }, "outbox delivered");
      if (batch.claimed === 0 && !again) return;
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
