import { sql, type SQL } from "drizzle-orm";
import type { Db } from "#db/connect";
import { rowsOf } from "./begin";
import { formatUsdAmount } from "#domain/money";
import { REFINANCED_ID_OFFSET } from "#domain/noteIds";
import type { ChainEvent } from "./decode";
import type { Batch, OutboxMessage } from "./store";

/**
 * The off-chain loans follow their notes: the indexer is the one writer of a loan's
 * chain-derived state. Seeing the origination makes an approved loan active + minted with its token and
 * transaction; the final repayment makes an active or defaulted loan completed; a default makes an active loan
 * defaulted; a refinance completes an active loan as refinanced and opens the loan of its new note (same borrower,
 * the new terms, numbered by the new note's id) linked both ways. A loan in any other state is left as it is (a pending or rejected request never follows a note
 * originated behind the API's back).
 *
 * Each change runs in the batch's transaction, only when the loan's status allows it, so a replay changes
 * nothing and pushes nothing. Its previous state goes to the undo journal (table "loans"), so a reorg's rollback
 * (indexer/sync.ts) puts the loan back exactly, and its loan:status outbox rows get corrections like any other.
 */

export type LoanChangeKind = "originated" | "defaulted" | "repaid" | "refinanced";

export interface LoanChange {
  kind: LoanChangeKind;
  tokenId: bigint;
  /** The note's principal (the amount the loan:status events name). */
  principal: bigint;
  /** Origination, refinance: the (new) note's start (unix seconds). */
  start?: number;
  /** Default, refinance: who held the (old) note then (its depositor while vaulted), told beside the borrower. */
  holder?: string;
  /** Refinance: the new note and its terms (`principal` is the new note's). */
  newTokenId?: bigint;
  rateBps?: number;
  termMonths?: number;
}

interface PendingChange extends LoanChange {
  blockNumber: number;
  blockTime: Date | null;
  txHash: string;
  logIndex: number;
}

/** The journal's table name for loan changes; its row key is { id, event_id } (the loan and its timeline entry). */
export const LOAN_UNDO_TABLE = "loans";

/** The loan columns the indexer owns: what the journal keeps and a rollback restores. */
const OWNED_COLUMNS = [
  "status",
  "mint_status",
  "listing_status",
  "nft_token_id",
  "nft_transaction_hash",
  "mint_tx_hash",
  "note_start",
  "mint_error",
  "completed_at",
  "defaulted_at",
  "refinanced_to",
] as const;

interface KindRule {
  /** Which loans the change applies to: one of these statuses, and minted or not yet. */
  from: string[];
  minted: boolean;
  /** The new values (alias c: the change). */
  set: SQL;
  status: "active" | "completed" | "defaulted";
  action: string;
  notes: string;
}

// In chain order: a note is originated, may default, and is repaid last (the final payment burns it).
const RULES: [LoanChangeKind, KindRule][] = [
  [
    "originated",
    {
      from: ["approved"],
      minted: false,
      set: sql`status = 'active', mint_status = 'minted', nft_token_id = c.token_id::text, nft_transaction_hash = c.tx_hash,
               mint_tx_hash = c.tx_hash, note_start = c.start, mint_error = null`,
      status: "active",
      action: "minted",
      notes: "Originated on-chain",
    },
  ],
  [
    "defaulted",
    {
      from: ["active"],
      minted: true,
      set: sql`status = 'defaulted', defaulted_at = coalesce(c.block_time, now())`,
      status: "defaulted",
      action: "defaulted",
      notes: "Marked defaulted on-chain",
    },
  ],
  [
    "repaid",
    {
      from: ["active", "defaulted"],
      minted: true,
      set: sql`status = 'completed', completed_at = coalesce(c.block_time, now()), listing_status = 'none'`,
      status: "completed",
      action: "completed",
      notes: "Repaid in full on-chain",
    },
  ],
  [
    "refinanced",
    {
      from: ["active"],
      minted: true,
      set: sql`status = 'completed', completed_at = coalesce(c.block_time, now()), listing_status = 'none', refinanced_to = c.new_id`,
      status: "completed",
      action: "refinanced",
      notes: "Refinanced on-chain",
    },
  ],
];

const pending = new WeakMap<Batch, PendingChange[]>();

/** Called by the handlers (through the context) for the event being handled. */
export function recordLoanChange(batch: Batch, change: LoanChange, event: ChainEvent): void {
  // A refinance's note opens its loan by the refinance's own change, never as an approved request's origination.
  if (change.kind === "originated" && change.tokenId >= REFINANCED_ID_OFFSET) return;
  let list = pending.get(batch);
  if (!list) pending.set(batch, (list = []));
  // The refinance paid the old note off in its own transaction: that payoff is the refinance, not a repayment.
  if (change.kind === "refinanced") {
    const payoff = list.findIndex((other) => other.kind === "repaid" && other.tokenId === change.tokenId && other.txHash === event.txHash);
    if (payoff >= 0) list.splice(payoff, 1);
  }
  list.push({ ...change, blockNumber: event.blockNumber, blockTime: event.blockTime, txHash: event.txHash, logIndex: event.logIndex });
}

interface Changed {
  id: string;
  user_id: string;
  token_id: string;
  tx_hash: string;
  block_number: string | number;
  log_index: number;
  holder_user_id: string | null;
}

/** What the light read finds per loan: [loan number, status, minted]. */
export type LoanState = [string, string, boolean];

/**
 * The light read of the batch's loans as a scalar subquery, for the batch's own statement to carry (one round trip
 * fewer inside its transaction); null when the batch changes no loan. It sees the statement's snapshot, as a read
 * right after it would: the writes re-check every rule under the row lock anyway.
 */
export function loanStatesQuery(batch: Batch): SQL | null {
  const recorded = pending.get(batch);
  if (!recorded?.length) return null;
  return sql`(select coalesce(json_agg(json_build_array(loan_number::text, status, mint_status = 'minted')), '[]'::json) from loans
    where ${followersOf(recorded)})`;
}

/** The loans whose numbers are the notes these changes name. */
function followersOf(changes: PendingChange[]): SQL {
  const tokens = [...new Set(changes.map((change) => change.tokenId.toString()))];
  return sql`loan_number = any(${sql.param(`{${tokens.join(",")}}`)}::numeric[])`;
}

/**
 * True when no loan carries the number of a note the batch changes, read on another connection while the batch is
 * prepared; the batch's transaction then has nothing to do after its statement. A loan created since is a pending
 * request, which no change applies to, so the answer still holds at the commit.
 */
export async function noLoansFollow(reader: Db, batch: Batch): Promise<boolean> {
  const recorded = pending.get(batch);
  if (!recorded?.length) return true;
  const [row] = rowsOf<{ found: boolean }>(await reader.execute(sql`select exists (select 1 from loans where ${followersOf(recorded)}) as found`));
  return !row.found;
}

/**
 * Applies the batch's loan changes inside its transaction, after the mirror rows are written and before the
 * outbox is: each applied change journals the loan's previous state (in blocks not yet final), adds a timeline
 * entry, and queues its loan:status events (nothing for a silent replay). `states` is what loanStatesQuery(),
 * carried by the batch's statement, found.
 */
export async function applyLoanChanges(tx: Db, batch: Batch, finalized: number, states: LoanState[] | undefined): Promise<void> {
  const recorded = pending.get(batch);
  if (!recorded?.length) return;
  if (!states) throw new Error("the batch's statement did not carry loanStatesQuery(): its loans were not read");
  pending.delete(batch);
  const changes = applicable(recorded, states);
  for (const [kind, rule] of RULES) {
    const ofKind = changes.filter((change) => change.kind === kind);
    if (ofKind.length === 0) continue;
    const query = kind === "refinanced" ? refinanceQuery(batch.chainId, finalized, rule, ofKind) : changeQuery(batch.chainId, finalized, rule, ofKind);
    const applied = rowsOf<Changed>(await tx.execute(query));
    // A refinance's news is its own loan:refinanced (indexer/handlers/loanNote.ts), not a completion's.
    if (kind === "refinanced") continue;
    const byToken = new Map(ofKind.map((change) => [change.tokenId.toString(), change]));
    for (const row of applied) emitChange(batch, rule, row, byToken.get(String(row.token_id))!);
  }
  // Handler rows and loan rows of one log stay in chain order (loan:funded before loan:status).
  batch.outbox.sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
}

/**
 * The changes that will apply, from one light read: a backfill of notes without loans, or a rebuild whose loans
 * already follow their notes, then writes nothing.
 */
function applicable(changes: PendingChange[], states: LoanState[]): PendingChange[] {
  if (states.length === 0) return [];
  const state = new Map(states.map(([loanNumber, status, minted]) => [loanNumber, { status, minted }]));
  const kept: PendingChange[] = [];
  for (const [kind, rule] of RULES) {
    for (const change of changes) {
      const loan = state.get(change.tokenId.toString());
      if (change.kind !== kind || !loan || !rule.from.includes(loan.status) || loan.minted !== rule.minted) continue;
      state.set(change.tokenId.toString(), { status: rule.status, minted: true });
      kept.push(change);
    }
  }
  return kept;
}

function changeQuery(chainId: number, finalized: number, rule: KindRule, changes: PendingChange[]): SQL {
  const column = columnOf(changes);
  const previous = sql.raw(`jsonb_build_object(${OWNED_COLUMNS.map((name) => `'${name}', l.${name}`).join(", ")})`);
  return sql`
    with c as (
      select * from unnest(
        ${column((c) => c.tokenId.toString())}::numeric[], ${column((c) => c.txHash)}::text[], ${column((c) => c.blockNumber)}::bigint[],
        ${column((c) => c.logIndex)}::int[], ${column((c) => c.blockTime?.toISOString() ?? null)}::timestamptz[],
        ${column((c) => (c.start === undefined ? null : String(c.start)))}::bigint[], ${column((c) => c.holder ?? null)}::text[]
      ) as c(token_id, tx_hash, block_number, log_index, block_time, start, holder)
    ),
    p as (
      select l.id, l.user_id, c.*, ${previous} as previous
      from loans l join c on l.loan_number = c.token_id
      where l.status = any(${sql.param(`{${rule.from.join(",")}}`)}::text[]) and (l.mint_status = 'minted') = ${rule.minted}::boolean
      for update of l
    ),
    -- Data-modifying clauses run to completion whether or not the final select reads them.
    u as (
      update loans set ${rule.set}, updated_at = now()
      from p c where loans.id = c.id
      returning loans.id
    ),
    e as (
      insert into loan_events (loan_id, action, notes, tx_hash)
      select id, ${rule.action}::text, ${rule.notes}::text, tx_hash from p
      returning id, loan_id
    ),
    j as (
      insert into chain_undo (chain_id, block_number, table_name, row_key, previous)
      select ${chainId}::int, p.block_number, ${LOAN_UNDO_TABLE}::text, jsonb_build_object('id', p.id, 'event_id', e.id), p.previous
      from p join e on e.loan_id = p.id
      where p.block_number > ${finalized}::bigint
    )
    select p.id, p.user_id, p.token_id::text, p.tx_hash, p.block_number, p.log_index,
      (select h.id from users h where p.holder is not null and h.wallet_address = p.holder) as holder_user_id
    from p
    order by p.block_number, p.log_index`;
}

/** Each change's values as one array literal per column: the driver then sends one string, not an element-by-element array. */
function columnOf(changes: PendingChange[]) {
  return (pick: (change: PendingChange) => string | number | null) => sql.param(`{${changes.map((change) => pick(change) ?? "NULL").join(",")}}`);
}

/**
 * A refinance: the old loan completes as refinanced (journaled like any change), and the new note's loan is inserted
 * with the old one's borrower, purpose and pledge and the new note's terms (journaled as an insert, which a rollback
 * deletes). Each gets a timeline entry. Only an active, minted loan not yet refinanced follows, so a replay does nothing.
 */
function refinanceQuery(chainId: number, finalized: number, rule: KindRule, changes: PendingChange[]): SQL {
  const column = columnOf(changes);
  const previous = sql.raw(`jsonb_build_object(${OWNED_COLUMNS.map((name) => `'${name}', l.${name}`).join(", ")})`);
  return sql`
    with c as (
      select * from unnest(
        ${column((c) => c.tokenId.toString())}::numeric[], ${column((c) => c.newTokenId!.toString())}::numeric[], ${column((c) => c.txHash)}::text[],
        ${column((c) => c.blockNumber)}::bigint[], ${column((c) => c.logIndex)}::int[], ${column((c) => c.blockTime?.toISOString() ?? null)}::timestamptz[],
        ${column((c) => String(c.start))}::bigint[], ${column((c) => c.principal.toString())}::numeric[], ${column((c) => c.rateBps!)}::int[],
        ${column((c) => c.termMonths!)}::int[], ${column((c) => c.holder ?? null)}::text[]
      ) as c(token_id, new_token_id, tx_hash, block_number, log_index, block_time, start, principal, rate_bps, term_months, holder)
    ),
    p as (
      select l.id, l.user_id, gen_random_uuid() as new_id, c.*, ${previous} as previous
      from loans l join c on l.loan_number = c.token_id
      where l.status = any(${sql.param(`{${rule.from.join(",")}}`)}::text[]) and l.mint_status = 'minted' and l.refinanced_to is null
      for update of l
    ),
    n as (
      insert into loans (id, loan_number, user_id, amount, principal, purpose, rate_bps, term_months, collateral, collateral_collection,
        collateral_token_id, collateral_appraisal, collateral_appraised_by, collateral_appraised_at, status, mint_status, borrower_wallet,
        approval_date, nft_token_id, nft_transaction_hash, mint_tx_hash, note_start, refinanced_from)
      select p.new_id, p.new_token_id, l.user_id, p.principal, p.principal, l.purpose, p.rate_bps, p.term_months, l.collateral, l.collateral_collection,
        l.collateral_token_id, l.collateral_appraisal, l.collateral_appraised_by, l.collateral_appraised_at, 'active', 'minted', l.borrower_wallet,
        coalesce(p.block_time, now()), p.new_token_id::text, p.tx_hash, p.tx_hash, p.start, p.id
      from p join loans l on l.id = p.id
      returning id
    ),
    u as (
      update loans set ${rule.set}, updated_at = now()
      from p c where loans.id = c.id
      returning loans.id
    ),
    e as (
      insert into loan_events (loan_id, action, notes, tx_hash)
      select id, ${rule.action}::text, 'Refinanced on-chain into note #' || new_token_id, tx_hash from p
      returning id, loan_id
    ),
    f as (
      insert into loan_events (loan_id, action, notes, tx_hash)
      select new_id, ${rule.action}::text, 'Opened on-chain by refinancing note #' || token_id, tx_hash from p
    ),
    j as (
      insert into chain_undo (chain_id, block_number, table_name, row_key, previous)
      select ${chainId}::int, p.block_number, ${LOAN_UNDO_TABLE}::text, key, value
      from p join e on e.loan_id = p.id,
        lateral (values (jsonb_build_object('id', p.new_id, 'inserted', true), null::jsonb), (jsonb_build_object('id', p.id, 'event_id', e.id), p.previous)) as k(key, value)
      where p.block_number > ${finalized}::bigint
    )
    select p.id, p.user_id, p.new_id, p.token_id::text, p.new_token_id::text, p.tx_hash, p.block_number, p.log_index,
      (select h.id from users h where p.holder is not null and h.wallet_address = p.holder) as holder_user_id
    from p
    order by p.block_number, p.log_index`;
}

/**
 * The loan:status events of one applied change: to the borrower (with the loan's id), and for a default also to
 * admins and to the note's holder when that is someone else (without the loan's id: it is not their loan).
 */
function emitChange(batch: Batch, rule: KindRule, row: Changed, change: PendingChange): void {
  const refs = { tokenId: row.token_id, txHash: row.tx_hash };
  const base = { status: rule.status, amount: formatUsdAmount(change.principal) };
  const at = { blockNumber: Number(row.block_number), txHash: row.tx_hash, logIndex: row.log_index } as ChainEvent;
  const emit = (message: OutboxMessage) => batch.emit(message, at);
  const borrowerRooms = [`user:${row.user_id}`];
  if (rule.status === "defaulted") borrowerRooms.push("admins");
  emit({ event: "loan:status", payload: { ...base, loanId: row.id, ...refs }, rooms: borrowerRooms });
  if (rule.status === "defaulted" && row.holder_user_id && row.holder_user_id !== row.user_id) {
    emit({ event: "loan:status", payload: { ...base, ...refs }, rooms: [`user:${row.holder_user_id}`] });
  }
}

/** Rollback of one journaled loan change (called by indexer/sync.ts rollback, newest first). */
export async function undoLoanChange(db: Db, rowKey: Record<string, unknown>, previous: unknown): Promise<void> {
  const id = String(rowKey.id);
  // A refinance's new loan: its timeline goes with it, and the old loan's link is restored by its own entry.
  if (rowKey.inserted) {
    await db.execute(sql`delete from loans where id = ${id}::uuid`);
    return;
  }
  if (rowKey.event_id) await db.execute(sql`delete from loan_events where id = ${String(rowKey.event_id)}::uuid`);
  const columns = sql.raw(OWNED_COLUMNS.join(", "));
  await db.execute(sql`
    update loans set (${columns}) = (select ${columns} from jsonb_populate_record(null::loans, ${JSON.stringify(previous)}::jsonb)), updated_at = now()
    where id = ${id}::uuid`);
}
