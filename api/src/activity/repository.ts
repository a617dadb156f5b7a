import { sql, type SQL } from "drizzle-orm";
import type { Db } from "#db/connect";

/**
 * Reads of the chain mirror (written by indexer/) for one user: the notes of their loans, the notes their wallet
 * holds, and every repayment, sale, transfer, vault move and withdrawal that touches either. Raw SQL because token
 * ids are numeric(78,0) in the mirror and bigint in loans.
 */

export interface LoanNoteRow {
  loan_id: string;
  loan_status: string;
  mint_status: string;
  loan_principal: string | null;
  token_id: string | null;
  principal: string | null;
  rate_bps: number | null;
  term_months: number | null;
  start_time: string | null;
  total_repaid: string | null;
  note_status: "active" | "repaid" | "defaulted" | null;
  burned: boolean | null;
  owner: string | null;
  holder: string | null;
  borrower: string | null;
  origin_tx_hash: string | null;
  origin_block: string | null;
  origin_time: Date | string | null;
}

export interface HeldNoteRow {
  token_id: string;
  principal: string;
  rate_bps: number;
  term_months: number;
  start_time: string;
  total_repaid: string;
}

interface LogRow {
  tx_hash: string;
  log_index: number;
  block_number: string;
  block_time: Date | string | null;
}
export interface RepaymentRow extends LogRow {
  token_id: string;
  payer: string;
  beneficiary: string;
  amount: string;
  total_repaid: string;
}
export interface SaleRow extends LogRow {
  token_id: string;
  seller: string;
  buyer: string;
  price: string;
}
export interface TransferRow extends LogRow {
  token_id: string;
  from_address: string;
  to_address: string;
}
export interface VaultMoveRow extends LogRow {
  token_id: string;
  account: string;
  kind: "deposit" | "withdraw";
}
export interface WithdrawalRow extends LogRow {
  account: string;
  amount: string;
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

export function createActivityRepository(db: Db, chainId: number) {
  return {
    /** Every loan of the user, with its note from the mirror when it has one. */
    loanNotes(userId: string): Promise<LoanNoteRow[]> {
      return rows(
        db,
        sql`
        select l.id as loan_id, l.status as loan_status, l.mint_status, l.principal::text as loan_principal,
          n.token_id::text as token_id, n.principal::text as principal, n.rate_bps, n.term_months, n.start_time::text as start_time,
          n.total_repaid::text as total_repaid, n.status as note_status, n.burned, n.owner, n.holder, n.borrower,
          n.origin_tx_hash, n.origin_block::text as origin_block, n.origin_time
        from loans l
        left join chain_notes n on n.chain_id = ${chainId} and n.token_id = l.loan_number::numeric
        where l.user_id = ${userId}
        order by l.created_at desc`,
      );
    },

    loanNote(loanId: string): Promise<(LoanNoteRow & { user_id: string })[]> {
      return rows(
        db,
        sql`
        select l.id as loan_id, l.user_id, l.status as loan_status, l.mint_status, l.principal::text as loan_principal,
          n.token_id::text as token_id, n.principal::text as principal, n.rate_bps, n.term_months, n.start_time::text as start_time,
          n.total_repaid::text as total_repaid, n.status as note_status, n.burned, n.owner, n.holder, n.borrower,
          n.origin_tx_hash, n.origin_block::text as origin_block, n.origin_time
        from loans l
        left join chain_notes n on n.chain_id = ${chainId} and n.token_id = l.loan_number::numeric
        where l.id = ${loanId}`,
      );
    },

    /** Notes whose rights belong to the wallet: owned, or deposited in the vault by it. */
    heldNotes(wallet: string): Promise<HeldNoteRow[]> {
      return rows(
        db,
        sql`
        select token_id::text as token_id, principal::text as principal, rate_bps, term_months, start_time::text as start_time, total_repaid::text as total_repaid
        from chain_notes where chain_id = ${chainId} and holder = ${wallet} and not burned`,
      );
    },

    /** Terms and progress of the given notes, burned or not. */
    notes(tokenIds: string[]): Promise<(HeldNoteRow & { status: string; burned: boolean })[]> {
      if (!tokenIds.length) return Promise.resolve([]);
      return rows(
        db,
        sql`
        select token_id::text as token_id, principal::text as principal, rate_bps, term_months, start_time::text as start_time,
          total_repaid::text as total_repaid, status, burned
        from chain_notes where chain_id = ${chainId} and token_id in (${tokenList(tokenIds)})`,
      );
    },

    async credits(wallet: string): Promise<{ credited: bigint; withdrawn: bigint }> {
      const [row] = await rows<{ credited: string; withdrawn: string }>(
        db,
        sql`
        select credited::text as credited, withdrawn::text as withdrawn from chain_credits where chain_id = ${chainId} and account = ${wallet}`,
      );
      return { credited: BigInt(row?.credited ?? 0), withdrawn: BigInt(row?.withdrawn ?? 0) };
    },

    /** Repayments of the given notes, paid by the wallet, or credited to it. */
    repayments(tokenIds: string[], wallet: string | null): Promise<RepaymentRow[]> {
      const byToken = tokenIds.length ? sql`token_id in (${tokenList(tokenIds)})` : sql`false`;
      const byWallet = wallet ? sql`payer = ${wallet} or beneficiary = ${wallet}` : sql`false`;
      return rows(
        db,
        sql`
        select ${LOG}, token_id::text as token_id, payer, beneficiary, amount::text as amount, total_repaid::text as total_repaid
        from chain_repayments where chain_id = ${chainId} and (${byToken} or ${byWallet})
        order by block_number, log_index`,
      );
    },

    sales(tokenIds: string[], wallet: string | null): Promise<SaleRow[]> {
      const byToken = tokenIds.length ? sql`token_id in (${tokenList(tokenIds)})` : sql`false`;
      const byWallet = wallet ? sql`buyer = ${wallet} or seller = ${wallet}` : sql`false`;
      return rows(
        db,
        sql`
        select ${LOG}, token_id::text as token_id, seller, buyer, price::text as price from (
          select chain_id, tx_hash, log_index, block_number, block_time, token_id, seller, buyer, price from chain_sales
          union all
          -- A signed order's fill is a sale like an on-chain listing's.
          select chain_id, tx_hash, log_index, block_number, block_time, token_id, seller, buyer, price from chain_order_fills
        ) s where chain_id = ${chainId} and (${byToken} or ${byWallet}) order by block_number, log_index`,
      );
    },

    transfers(tokenIds: string[], wallet: string | null): Promise<TransferRow[]> {
      const byToken = tokenIds.length ? sql`token_id in (${tokenList(tokenIds)})` : sql`false`;
      const byWallet = wallet ? sql`from_address = ${wallet} or to_address = ${wallet}` : sql`false`;
      return rows(
        db,
        sql`
        select ${LOG}, token_id::text as token_id, from_address, to_address
        from chain_transfers where chain_id = ${chainId} and (${byToken} or ${byWallet}) order by block_number, log_index`,
      );
    },

    vaultMoves(wallet: string): Promise<VaultMoveRow[]> {
      return rows(
        db,
        sql`
        select ${LOG}, token_id::text as token_id, account, kind
        from chain_vault_moves where chain_id = ${chainId} and account = ${wallet} order by block_number, log_index`,
      );
    },

    /** Vault deposits and withdrawals of the given notes, whoever made them. */
    vaultMovesOf(tokenIds: string[]): Promise<VaultMoveRow[]> {
      if (!tokenIds.length) return Promise.resolve([]);
      return rows(
        db,
        sql`
        select ${LOG}, token_id::text as token_id, account, kind
        from chain_vault_moves where chain_id = ${chainId} and token_id in (${tokenList(tokenIds)}) order by block_number, log_index`,
      );
    },

    withdrawals(wallet: string): Promise<WithdrawalRow[]> {
      return rows(
        db,
        sql`
        select ${LOG}, account, amount::text as amount
        from chain_credit_withdrawals where chain_id = ${chainId} and account = ${wallet} order by block_number, log_index`,
      );
    },
  };
}

export type ActivityRepository = ReturnType<typeof createActivityRepository>;
