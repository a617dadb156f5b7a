import { sql } from "drizzle-orm";
import { bigint, boolean, index, pgTable, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * Delivery state of chain_outbox rows, kept apart from the indexer's table so the indexer stays the only
 * writer of the mirror. A trigger (migration 0002) adds a row here in the same transaction as each outbox
 * row, so a rolled-back write leaves nothing to deliver; the API claims pending rows with
 * FOR UPDATE SKIP LOCKED and stamps delivered_at (api/src/realtime/outbox.ts). Delivered rows of final blocks are
 * pruned with their chain_outbox rows after a retention (api/src/realtime/outboxPrune.ts).
 */
export const outboxDeliveries = pgTable(
  "outbox_deliveries",
  {
    outboxId: bigint("outbox_id", { mode: "number" }).primaryKey(),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    /** False when the row was reverted before anyone saw it: its correction is then not sent either. */
    emitted: boolean("emitted").notNull().default(false),
    /** Notifications stored for this row, removed again if a reorg reverts it. */
    notificationIds: uuid("notification_ids")
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
  },
  (t) => [
    index("outbox_deliveries_pending_idx")
      .on(t.outboxId)
      .where(sql`delivered_at is null`),
  ],
);

export type OutboxDeliveryRow = typeof outboxDeliveries.$inferSelect;
