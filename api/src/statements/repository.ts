import { sql, type SQL } from "drizzle-orm";
import type { Db } from "#db/connect";

/**
 * Reads of the chain mirror (written by indexer/) for statements: a loan with its note, a note's repayments, and a
 * wallet's trades (with the fee the chain logged), repayments credited to it and credit withdrawals. Raw SQL
 * because token ids are numeric(78,0) in the mirror and bigint in loans.
 */

interface LogRow {
  tx_hash: string;
  log_index: number;
  block_number: string;
  block_time: Date | string | null;
}
export interface StatementLoanRow {
  loan_id: string;
  user_id: string;
  token_id: string | null;
  borrower: string | null;
  principal: string | null;
  rate_bps: number | null;
  term_months: number | null;
  start_time: string | null;
  total_repaid: string | null;
  fees_paid_through: number | null;
  status: "active" | "repaid" | "defaulted" | null;
}
export interface NoteRow {
  token_id: string;
  holder: string;
  principal: string;
  rate_bps: number;
  term_months: number;
  start_time: string;
  total_repaid: string;
  status: "active" | "repaid" | "defaulted";
  burned: boolean;
}
export interface RepaymentRow extends LogRow {
  token_id: string;
  beneficiary: string;
  amount: string;
  total_repaid: string;
}
export interface TradeRow extends LogRow {
  token_id: string;
  seller: string;
  buyer: string;
  price: string;
  fee: string;
}
export interface LateFeeRow extends LogRow {
  token_id: string;
  beneficiary: string;
  amount: string;
}
export interface WithdrawalRow extends LogRow {
  amount: string;
}
export interface VaultMoveRow extends LogRow {
  token_id: string;
  kind: "deposit" | "withdraw";
}

async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

const LOG = sql`tx_hash, log_index, block_number::text as block_number, block_time`;
const tokenList = (ids: string[]) =>
  sql.join(
    ids.map((id) => sql`${id}::numeric`),
    sql`, `,
  );

export function createStatementsRepository(db: Db, chainId: number) {
  return {
    async loan(loanId: string): Promise<StatementLoanRow | undefined> {
      const [row] = await rows<StatementLoanRow>(
        db,
        sql`
        select l.id as loan_id, l.user_id, n.token_id::text as token_id, n.borrower, n.principal::text as principal, n.rate_bps,
          n.term_months, n.start_time::text as start_time, n.total_repaid::text as total_repaid, n.fees_paid_through, n.status
        from loans l
        left join chain_notes n on n.chain_id = ${chainId} and n.token_id = l.loan_number::numeric
        where l.id = ${loanId}`,
      );
      return row;
    },

    notes(tokenIds: string[]): Promise<NoteRow[]> {
      if (!tokenIds.length) return Promise.resolve([]);
      return rows(
        db,
        sql`
        select token_id::text as token_id, holder, principal::text as principal, rate_bps, term_months, start_time::text as start_time,
          total_repaid::text as total_repaid, status, burned
        from chain_notes where chain_id = ${chainId} and token_id in (${tokenList(tokenIds)})`,
      );
    },

    /** Every repayment of the given notes, in chain order. */
    repaymentsOf(tokenIds: string[]): Promise<RepaymentRow[]> {
      if (!tokenIds.length) return Promise.resolve([]);
      return rows(
        db,
        sql`
        select ${LOG}, token_id::text as token_id, beneficiary, amount::text as amount, total_repaid::text as total_repaid
        from chain_repayments where chain_id = ${chainId} and token_id in (${tokenList(tokenIds)})
        order by block_number, log_index`,
      );
    },

    /** Every late fee paid on the given notes (LateFeesPaid), in chain order. */
    lateFeesOf(tokenIds: string[]): Promise<LateFeeRow[]> {
      if (!tokenIds.length) return Promise.resolve([]);
      return rows(
        db,
        sql`
        select ${LOG}, token_id::text as token_id, beneficiary, amount::text as amount
        from chain_late_fee_payments where chain_id = ${chainId} and token_id in (${tokenList(tokenIds)})
        order by block_number, log_index`,
      );
    },

    /** Late fees credited to the wallet, as holder or depositor: each is part of a repayment credited to it. */
    lateFeesTo(wallet: string): Promise<LateFeeRow[]> {
      return rows(
        db,
        sql`
        select ${LOG}, token_id::text as token_id, beneficiary, amount::text as amount
        from chain_late_fee_payments where chain_id = ${chainId} and beneficiary = ${wallet}
        order by block_number, log_index`,
      );
    },

    /** Repayments credited to the wallet: as the note's owner, or as its depositor while it sat in the vault. */
    creditedTo(wallet: string): Promise<RepaymentRow[]> {
      return rows(
        db,
        sql`
        select ${LOG}, token_id::text as token_id, beneficiary, amount::text as amount, total_repaid::text as total_repaid
        from chain_repayments where chain_id = ${chainId} and beneficiary = ${wallet}
        order by block_number, log_index`,
      );
    },

    /** The wallet's purchases and sales: on-chain listings' Sold and signed orders' OrderFilled, with their fees. */
    trades(wallet: string): Promise<TradeRow[]> {
      return rows(
        db,
        sql`
        select ${LOG}, token_id::text as token_id, seller, buyer, price::text as price, fee::text as fee from (
          select chain_id, tx_hash, log_index, block_number, block_time, token_id, seller, buyer, price, fee from chain_sales
          union all
          select chain_id, tx_hash, log_index, block_number, block_time, token_id, seller, buyer, price, fee from chain_order_fills
        ) s where chain_id = ${chainId} and (buyer = ${wallet} or seller = ${wallet}) order by block_number, log_index`,
      );
    },

    withdrawals(wallet: string): Promise<WithdrawalRow[]> {
      return rows(
        db,
        sql`
        select ${LOG}, amount::text as amount
        from chain_credit_withdrawals where chain_id = ${chainId} and account = ${wallet} order by block_number, log_index`,
      );
    },

    vaultMoves(wallet: string): Promise<VaultMoveRow[]> {
      return rows(
        db,
        sql`
        select ${LOG}, token_id::text as token_id, kind
        from chain_vault_moves where chain_id = ${chainId} and account = ${wallet} order by block_number, log_index`,
      );
    },
  };
}

export type StatementsRepository = ReturnType<typeof createStatementsRepository>;
