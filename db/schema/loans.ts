import { sql } from "drizzle-orm";
import { type AnyPgColumn, bigint, check, index, integer, jsonb, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import type { ListingState, LoanStatus, MintStatus } from "#domain/statuses";
import { users } from "./users";

const amount = (name: string) => numeric(name, { precision: 78, scale: 0, mode: "bigint" });

export { LISTING_STATES, type ListingState } from "#domain/statuses";

export interface StoredCollateral {
  type: string;
  /** Micro-dollars as a decimal string (jsonb cannot hold a bigint). */
  value: string;
  description: string;
}

/**
 * A loan request and its life. Money is micro-dollars in numeric(78,0); the rate is basis points as on-chain.
 * `loanNumber` is the note's token id: from loan_number_seq at the request, or, for the loan a refinance opened, its
 * new note's id (the old one + 2^128, so numeric: docs/adr/0043-refinancing.md).
 */
export const loans = pgTable(
  "loans",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    loanNumber: amount("loan_number")
      .notNull()
      .default(sql`nextval('loan_number_seq')`),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    amount: amount("amount").notNull(),
    /** The funded amount, set at approval (at most `amount`). */
    principal: amount("principal"),
    purpose: text("purpose").notNull(),
    rateBps: integer("rate_bps").notNull(),
    termMonths: integer("term_months").notNull(),
    collateral: jsonb("collateral").$type<StoredCollateral>(),
    /** A pledged ERC-721: its collection (lowercase) and token id; both or neither. */
    collateralCollection: text("collateral_collection"),
    collateralTokenId: amount("collateral_token_id"),
    /** The admin's appraisal of the pledged piece, micro-dollars; the loan-to-value is principal (or amount) over it. */
    collateralAppraisal: amount("collateral_appraisal"),
    collateralAppraisedBy: uuid("collateral_appraised_by").references(() => users.id, { onDelete: "set null" }),
    collateralAppraisedAt: timestamp("collateral_appraised_at", { withTimezone: true }),
    status: text("status").$type<LoanStatus>().notNull().default("pending"),
    mintStatus: text("mint_status").$type<MintStatus>().notNull().default("none"),
    listingStatus: text("listing_status").$type<ListingState>().notNull().default("none"),
    /** The verified wallet the principal goes to, fixed at approval. */
    borrowerWallet: text("borrower_wallet"),
    rejectionReason: text("rejection_reason"),
    adminNotes: text("admin_notes"),
    /** The origination transaction as soon as it is sent, so a crash before its receipt can be reconciled. */
    mintTxHash: text("mint_tx_hash"),
    nftTokenId: text("nft_token_id"),
    nftTransactionHash: text("nft_transaction_hash"),
    /** The note's on-chain start (unix seconds), read from the origination. */
    noteStart: bigint("note_start", { mode: "bigint" }),
    mintError: text("mint_error"),
    listingTxHash: text("listing_tx_hash"),
    listingError: text("listing_error"),
    approvedBy: uuid("approved_by").references(() => users.id, { onDelete: "set null" }),
    approvalDate: timestamp("approval_date", { withTimezone: true }),
    rejectionDate: timestamp("rejection_date", { withTimezone: true }),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    defaultedAt: timestamp("defaulted_at", { withTimezone: true }),
    /** The loan a refinance of this one opened (this one then completed: paid off by the new lender). */
    refinancedTo: uuid("refinanced_to").references((): AnyPgColumn => loans.id, { onDelete: "set null" }),
    /** The loan this one refinanced: it was opened by that refinance, not by a request. */
    refinancedFrom: uuid("refinanced_from").references((): AnyPgColumn => loans.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("loans_loan_number_unique").on(t.loanNumber),
    index("loans_user_created_idx").on(t.userId, t.createdAt),
    index("loans_status_idx").on(t.status, t.createdAt),
    index("loans_mint_status_idx").on(t.mintStatus),
    check("loans_status_check", sql`${t.status} in ('pending', 'approved', 'active', 'completed', 'rejected', 'defaulted')`),
    check("loans_mint_status_check", sql`${t.mintStatus} in ('none', 'minting', 'minted', 'failed')`),
    check("loans_listing_status_check", sql`${t.listingStatus} in ('none', 'listing', 'listed', 'failed')`),
    index("loans_collateral_piece_idx").on(t.collateralCollection, t.collateralTokenId),
    check("loans_collateral_piece_check", sql`(${t.collateralCollection} is null) = (${t.collateralTokenId} is null)`),
    check("loans_collateral_appraisal_check", sql`${t.collateralAppraisal} is null or ${t.collateralAppraisal} > 0`),
    check("loans_principal_check", sql`${t.principal} is null or (${t.principal} > 0 and ${t.principal} <= ${t.amount})`),
  ],
);

/** Every decision and chain step of a loan: who, when, what, with the admin's notes. */
export const loanEvents = pgTable(
  "loan_events",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    loanId: uuid("loan_id")
      .notNull()
      .references(() => loans.id, { onDelete: "cascade" }),
    action: text("action").notNull(),
    /** Null for the system (jobs, reconciliation, the chain). */
    actorId: uuid("actor_id").references(() => users.id, { onDelete: "set null" }),
    notes: text("notes"),
    txHash: text("tx_hash"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("loan_events_loan_idx").on(t.loanId, t.createdAt)],
);

export type LoanRow = typeof loans.$inferSelect;
export type NewLoanRow = typeof loans.$inferInsert;
export type LoanEventRow = typeof loanEvents.$inferSelect;
