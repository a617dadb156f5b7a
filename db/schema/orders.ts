import { sql } from "drizzle-orm";
import { index, integer, numeric, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import type { OrderKind, OrderStatus } from "#domain/orders";

const amount = (name: string) => numeric(name, { precision: 78, scale: 0, mode: "bigint" });

/**
 * Signed orders (EIP-712, contracts/NoteOrders.sol) the API accepted, written only by api/src/orders. The chain's
 * word on them (fills, cancellations, counters) is in the mirror (chain_order_* in ./chain.ts); `status` is the
 * API's last verdict of orderStatusOf, kept so the book reads one table. Addresses and the hash are lowercase;
 * amounts are micro-dollars as numeric(78,0); every uint of the signed message is here, so the message can be
 * rebuilt exactly.
 */
export const orders = pgTable(
  "orders",
  {
    /** The EIP-712 digest: the contract's hashListing/hashOffer/hashMatchingOffer and the id in its events. */
    hash: text("hash").primaryKey(),
    chainId: integer("chain_id").notNull(),
    kind: text("kind").$type<OrderKind>().notNull(),
    signer: text("signer").notNull(),
    /** Null for a matching offer (any note inside its ranges). */
    tokenId: amount("token_id"),
    price: amount("price")
      .notNull()
      .default(sql`0`),
    parBps: integer("par_bps").notNull().default(0),
    cap: amount("cap"),
    changes: amount("changes"),
    /** The most days past due the signer accepts at a fill; 0: current notes only. */
    maxDaysPastDue: amount("max_days_past_due")
      .notNull()
      .default(sql`0`),
    minRateBps: integer("min_rate_bps"),
    maxRateBps: integer("max_rate_bps"),
    /** Seconds to maturity at the fill. */
    minTermLeft: amount("min_term_left"),
    maxTermLeft: amount("max_term_left"),
    minOutstanding: amount("min_outstanding"),
    maxOutstanding: amount("max_outstanding"),
    budget: amount("budget"),
    /** Unix seconds, as signed. */
    expiry: amount("expiry").notNull(),
    salt: amount("salt").notNull(),
    counter: amount("counter").notNull(),
    signature: text("signature").notNull(),
    status: text("status").$type<OrderStatus>().notNull().default("open"),
    statusReason: text("status_reason"),
    /** What a matching offer has spent so far (the contract's orderStatus `filled`). */
    filled: amount("filled")
      .notNull()
      .default(sql`0`),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * The chain's clock (latest block time) when the order was stored: a note's history places a signed listing by it
     * beside on-chain rows, whose times are block times too (the wall clock and a chain's clock may differ by months).
     */
    chainTime: timestamp("chain_time", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("orders_token_status_idx").on(t.tokenId, t.status), index("orders_signer_status_idx").on(t.signer, t.status), index("orders_kind_status_idx").on(t.kind, t.status)],
);

export type OrderRow = typeof orders.$inferSelect;
export type NewOrderRow = typeof orders.$inferInsert;
