import { sql } from "drizzle-orm";
import type { ChainCollateralState, ListingLapseReason } from "#domain/statuses";
import { bigint, bigserial, boolean, index, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The chain mirror, written only by indexer/. It can always be dropped and rebuilt
 * from the chain. Addresses are lowercase (users.wallet_address is too), amounts are numeric(78,0) as bigint.
 */

const amount = (name: string) => numeric(name, { precision: 78, scale: 0, mode: "bigint" });
const blockNo = (name: string) => bigint(name, { mode: "number" });

/** Every row made by one log carries where it came from; (chain, tx, log index) is its identity. */
const logColumns = () => ({
  chainId: integer("chain_id").notNull(),
  txHash: text("tx_hash").notNull(),
  logIndex: integer("log_index").notNull(),
  blockNumber: blockNo("block_number").notNull(),
  blockTime: timestamp("block_time", { withTimezone: true }),
});

export const NOTE_STATUSES = ["active", "repaid", "defaulted"] as const;
export type NoteStatus = (typeof NOTE_STATUSES)[number];

export const chainNotes = pgTable(
  "chain_notes",
  {
    chainId: integer("chain_id").notNull(),
    tokenId: amount("token_id").notNull(),
    borrower: text("borrower").notNull(),
    /** The ERC-721 owner: the vault's address while deposited, zero address once burned. */
    owner: text("owner").notNull(),
    /** Who the note's repayments and rights belong to: the depositor while in the vault, else the owner. */
    holder: text("holder").notNull(),
    principal: amount("principal").notNull(),
    rateBps: integer("rate_bps").notNull(),
    termMonths: integer("term_months").notNull(),
    /** Unix seconds, as the contract stores it. */
    startTime: blockNo("start_time").notNull(),
    /** Installments only, as the contract's `repaid`: late fees are counted apart, below. */
    totalRepaid: amount("total_repaid")
      .notNull()
      .default(sql`0`),
    /** LoanNote's `feesPaidThrough`: every installment up to it had its late fee paid or never owed one. */
    feesPaidThrough: integer("fees_paid_through").notNull().default(0),
    /** Late fees paid on the note so far (the sum of its LateFeesPaid amounts). */
    lateFeesPaid: amount("late_fees_paid")
      .notNull()
      .default(sql`0`),
    status: text("status").$type<NoteStatus>().notNull().default("active"),
    burned: boolean("burned").notNull().default(false),
    originTxHash: text("origin_tx_hash").notNull(),
    originBlock: blockNo("origin_block").notNull(),
    originTime: timestamp("origin_time", { withTimezone: true }),
    updatedBlock: blockNo("updated_block").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.tokenId] }), index("chain_notes_holder_idx").on(t.chainId, t.holder), index("chain_notes_borrower_idx").on(t.chainId, t.borrower)],
);

export const LISTING_STATUSES = ["active", "cancelled", "sold", "lapsed"] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];

/** One row per listing made; it ends sold, cancelled, or lapsed (with the reason and, for a repayment, its amount). */
export const chainListings = pgTable(
  "chain_listings",
  {
    ...logColumns(),
    tokenId: amount("token_id").notNull(),
    seller: text("seller").notNull(),
    price: amount("price").notNull(),
    status: text("status").$type<ListingStatus>().notNull().default("active"),
    updatedBlock: blockNo("updated_block").notNull(),
    closedTxHash: text("closed_tx_hash"),
    lapseReason: text("lapse_reason").$type<ListingLapseReason>(),
    /** The repayment that made it lapse (reason "repaid"). */
    lapseAmount: amount("lapse_amount"),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.txHash, t.logIndex] }), index("chain_listings_token_idx").on(t.chainId, t.tokenId, t.status), index("chain_listings_status_idx").on(t.chainId, t.status)],
);

export const chainSales = pgTable(
  "chain_sales",
  {
    ...logColumns(),
    tokenId: amount("token_id").notNull(),
    seller: text("seller").notNull(),
    buyer: text("buyer").notNull(),
    price: amount("price").notNull(),
    fee: amount("fee").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.txHash, t.logIndex] }), index("chain_sales_token_idx").on(t.chainId, t.tokenId)],
);

export const chainRepayments = pgTable(
  "chain_repayments",
  {
    ...logColumns(),
    tokenId: amount("token_id").notNull(),
    payer: text("payer").notNull(),
    /** The holder credited with this payment. */
    beneficiary: text("beneficiary").notNull(),
    amount: amount("amount").notNull(),
    totalRepaid: amount("total_repaid").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.txHash, t.logIndex] }), index("chain_repayments_token_idx").on(t.chainId, t.tokenId)],
);

/**
 * Late fees as the chain logged them (LateFeesPaid, just before the same payment's Repaid, whose amount includes
 * them): what was paid, to whom it was credited, and the installment the note's fees are then paid through.
 */
export const chainLateFeePayments = pgTable(
  "chain_late_fee_payments",
  {
    ...logColumns(),
    tokenId: amount("token_id").notNull(),
    beneficiary: text("beneficiary").notNull(),
    amount: amount("amount").notNull(),
    feesPaidThrough: integer("fees_paid_through").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.chainId, t.txHash, t.logIndex] }),
    index("chain_late_fee_payments_token_idx").on(t.chainId, t.tokenId),
    index("chain_late_fee_payments_beneficiary_idx").on(t.chainId, t.beneficiary),
  ],
);

/** Pull payments: what each account was credited with and has withdrawn. */
export const chainCredits = pgTable(
  "chain_credits",
  {
    chainId: integer("chain_id").notNull(),
    account: text("account").notNull(),
    credited: amount("credited")
      .notNull()
      .default(sql`0`),
    withdrawn: amount("withdrawn")
      .notNull()
      .default(sql`0`),
    updatedBlock: blockNo("updated_block").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.account] })],
);

export const chainCreditWithdrawals = pgTable(
  "chain_credit_withdrawals",
  {
    ...logColumns(),
    account: text("account").notNull(),
    amount: amount("amount").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.txHash, t.logIndex] }), index("chain_credit_withdrawals_account_idx").on(t.chainId, t.account)],
);

export const chainVaultPositions = pgTable(
  "chain_vault_positions",
  {
    chainId: integer("chain_id").notNull(),
    tokenId: amount("token_id").notNull(),
    depositor: text("depositor").notNull(),
    active: boolean("active").notNull(),
    depositTxHash: text("deposit_tx_hash").notNull(),
    depositBlock: blockNo("deposit_block").notNull(),
    updatedBlock: blockNo("updated_block").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.tokenId] }), index("chain_vault_positions_depositor_idx").on(t.chainId, t.depositor, t.active)],
);

export const chainVaultMoves = pgTable(
  "chain_vault_moves",
  {
    ...logColumns(),
    tokenId: amount("token_id").notNull(),
    account: text("account").notNull(),
    kind: text("kind").$type<"deposit" | "withdraw">().notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.txHash, t.logIndex] }), index("chain_vault_moves_token_idx").on(t.chainId, t.tokenId)],
);

export const chainTransfers = pgTable(
  "chain_transfers",
  {
    ...logColumns(),
    tokenId: amount("token_id").notNull(),
    from: text("from_address").notNull(),
    to: text("to_address").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.chainId, t.txHash, t.logIndex] }),
    index("chain_transfers_token_idx").on(t.chainId, t.tokenId),
    index("chain_transfers_from_idx").on(t.chainId, t.from),
    index("chain_transfers_to_idx").on(t.chainId, t.to),
  ],
);

/** A signed order's fill (NoteOrders OrderFilled): a matching offer may have several, any other order one. */
export const chainOrderFills = pgTable(
  "chain_order_fills",
  {
    ...logColumns(),
    orderHash: text("order_hash").notNull(),
    tokenId: amount("token_id").notNull(),
    seller: text("seller").notNull(),
    buyer: text("buyer").notNull(),
    price: amount("price").notNull(),
    fee: amount("fee").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.txHash, t.logIndex] }), index("chain_order_fills_order_idx").on(t.chainId, t.orderHash), index("chain_order_fills_token_idx").on(t.chainId, t.tokenId)],
);

/** A signed order cancelled one by one (NoteOrders OrderCancelled); only the signer's own hash is affected. */
export const chainOrderCancellations = pgTable(
  "chain_order_cancellations",
  {
    ...logColumns(),
    signer: text("signer").notNull(),
    orderHash: text("order_hash").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.txHash, t.logIndex] }), index("chain_order_cancellations_order_idx").on(t.chainId, t.signer, t.orderHash)],
);

/** Each signer's counter (NoteOrders CounterIncremented): their orders signed with a lower one never fill. */
export const chainOrderCounters = pgTable(
  "chain_order_counters",
  {
    chainId: integer("chain_id").notNull(),
    signer: text("signer").notNull(),
    counter: amount("counter").notNull(),
    updatedBlock: blockNo("updated_block").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.signer] })],
);

/** LoanNote's allow-list of pledgeable ERC-721 collections (CollectionAllowed / CollectionDisallowed). */
export const chainCollections = pgTable(
  "chain_collections",
  {
    chainId: integer("chain_id").notNull(),
    collection: text("collection").notNull(),
    allowed: boolean("allowed").notNull(),
    /** The collection's slot in LoanNote's list (CollectionAllowed's index); kept when disallowed. */
    slot: integer("slot").notNull(),
    /** The block whose CollectionAllowed first brought the collection into the mirror. */
    allowedBlock: blockNo("allowed_block").notNull(),
    updatedBlock: blockNo("updated_block").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.collection] })],
);

/**
 * The ERC-721 pledged for a note, from CollateralLocked until it leaves escrow (CollateralReturned, ReturnFailed,
 * Claimed). One row per note: a note has at most one pledge in its life.
 */
export const chainCollateral = pgTable(
  "chain_collateral",
  {
    chainId: integer("chain_id").notNull(),
    tokenId: amount("token_id").notNull(),
    collection: text("collection").notNull(),
    collateralId: amount("collateral_id").notNull(),
    borrower: text("borrower").notNull(),
    state: text("state").$type<ChainCollateralState>().notNull(),
    lockedTxHash: text("locked_tx_hash").notNull(),
    lockedBlock: blockNo("locked_block").notNull(),
    lockedTime: timestamp("locked_time", { withTimezone: true }),
    /** The transaction of the last state change after the lock (return, failed return, claim). */
    closedTxHash: text("closed_tx_hash"),
    /** Who received the piece (returned or claimed). */
    closedTo: text("closed_to"),
    updatedBlock: blockNo("updated_block").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.chainId, t.tokenId] }),
    index("chain_collateral_piece_idx").on(t.chainId, t.collection, t.collateralId),
    index("chain_collateral_borrower_idx").on(t.chainId, t.borrower),
  ],
);

/** Who owns each piece of the allowed collections, from their ERC-721 Transfer logs (the wizard's NFT picker). */
export const chainNftOwners = pgTable(
  "chain_nft_owners",
  {
    chainId: integer("chain_id").notNull(),
    collection: text("collection").notNull(),
    tokenId: amount("token_id").notNull(),
    owner: text("owner").notNull(),
    updatedBlock: blockNo("updated_block").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.collection, t.tokenId] }), index("chain_nft_owners_owner_idx").on(t.chainId, t.owner)],
);

/** How far the mirror of one chain reaches, and which chain and deployment it mirrors. */
export const chainCursors = pgTable("chain_cursors", {
  chainId: integer("chain_id").primaryKey(),
  genesisHash: text("genesis_hash").notNull(),
  /** Contract addresses and deploy block: a different deployment means a rebuild. */
  deploymentKey: text("deployment_key").notNull(),
  blockNumber: blockNo("block_number").notNull(),
  blockHash: text("block_hash").notNull(),
  /** Blocks up to here are replayed without outbox rows (a rebuild must not push history again). */
  silentUntil: blockNo("silent_until").notNull().default(-1),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Hashes of indexed, not yet final blocks: a mismatch with the chain reveals a reorg. */
export const chainBlocks = pgTable(
  "chain_blocks",
  {
    chainId: integer("chain_id").notNull(),
    number: blockNo("number").notNull(),
    hash: text("hash").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.number] })],
);

/** What a not yet final block changed in the derived tables, so a reorg can put it back. */
export const chainUndo = pgTable(
  "chain_undo",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    chainId: integer("chain_id").notNull(),
    blockNumber: blockNo("block_number").notNull(),
    tableName: text("table_name").notNull(),
    /** The row's primary key columns (database names). */
    rowKey: jsonb("row_key").notNull(),
    /** The whole row before the change (database names); null = the row did not exist. */
    previous: jsonb("previous"),
  },
  (t) => [index("chain_undo_block_idx").on(t.chainId, t.blockNumber)],
);

/**
 * Real-time events to push, committed with the mirror rows that caused them.
 * A rolled-back event is marked reverted and followed by a "correction" row with the same rooms.
 */
export const chainOutbox = pgTable(
  "chain_outbox",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    chainId: integer("chain_id").notNull(),
    blockNumber: blockNo("block_number").notNull(),
    txHash: text("tx_hash").notNull(),
    logIndex: integer("log_index").notNull(),
    /** A server event name of domain/events.ts. */
    event: text("event").notNull(),
    /** Socket.io rooms of domain/events.ts ROOMS: "marketplace", "admins", "user:<_id>". */
    rooms: text("rooms").array().notNull(),
    payload: jsonb("payload").notNull(),
    kind: text("kind").$type<"event" | "correction">().notNull().default("event"),
    correctsId: bigint("corrects_id", { mode: "number" }),
    reverted: boolean("reverted").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true })
      .notNull()
      .default(sql`now()`),
  },
  (t) => [index("chain_outbox_block_idx").on(t.chainId, t.blockNumber)],
);

export type ChainNote = typeof chainNotes.$inferSelect;
export type ChainListing = typeof chainListings.$inferSelect;
export type ChainOutboxRow = typeof chainOutbox.$inferSelect;
