import { and, eq, sql, type SQL } from "drizzle-orm";
import { orders } from "#db/schema";
import type { Db } from "#db/connect";
import type { ListingLapseReason } from "#domain/statuses";
import { parPrice } from "#domain/orders";
import { parSplit, type FeeParams } from "#domain/servicingRecord";
import type { PledgeColumns } from "../collateral/wire";
import type { ServicedLoan } from "#domain/lateFees";

/**
 * Reads of the chain mirror (written by indexer/) joined with the loans that minted the notes. Raw SQL because
 * token ids are numeric(78,0) on one side and bigint on the other, and every read here is a join.
 */

/** The ERC-721 escrowed for the note, `pledge_*`: chain_collateral with the cached metadata and the loan's appraisal. */
export interface NoteRow extends PledgeColumns {
  token_id: string;
  borrower: string;
  owner: string;
  holder: string;
  principal: string;
  rate_bps: number;
  term_months: number;
  start_time: string;
  total_repaid: string;
  fees_paid_through: number;
  status: "active" | "repaid" | "defaulted";
  burned: boolean;
  origin_tx_hash: string;
  origin_time: Date | string | null;
  loan_id: string | null;
  loan_user_id: string | null;
  purpose: string | null;
  loan_status: string | null;
  approval_date: Date | string | null;
  created_at: Date | string | null;
  updated_at: Date | string | null;
  listing_price: string | null;
  listing_seller: string | null;
  listing_time: Date | string | null;
  listing_tx_hash: string | null;
  listing_block: string | null;
  listing_log_index: number | null;
  depositor: string | null;
  previous_owners: string[] | null;
  /** When the note's last listing lapsed (none is live): why, the repayment that did it, and the transaction. */
  lapse_reason?: ListingLapseReason | null;
  lapse_amount?: string | null;
  lapse_tx_hash?: string | null;
  /** The holder's newest open signed listing, when the note has one: what the listing columns show without an on-chain one. */
  order_hash?: string | null;
  order_price?: string | null;
  order_par_bps?: number | null;
  order_signer?: string | null;
  order_time?: Date | string | null;
}

/**
 * A note listed by a signed order and not on-chain shows that order as its listing: its seller, when it was stored, and
 * its price at the chain's clock `now` (a par listing's is the dirty price, the contract's price at a fill).
 */
function withSignedListing(row: NoteRow, now: bigint, fees: FeeParams): NoteRow {
  if (row.listing_price !== null || !row.order_hash) return row;
  const bps = BigInt(row.order_par_bps ?? 0);
  const price = bps === 0n ? BigInt(row.order_price ?? 0) : parPrice(parSplit(servicedLoanOf(row), now, fees), bps);
  return { ...row, listing_price: price.toString(), listing_seller: row.order_signer ?? null, listing_time: row.order_time ?? null, listing_tx_hash: null };
}

/** The note as its servicing reads it: terms, installments repaid, and how far its late fees are paid. */
export function servicedLoanOf(row: Pick<NoteRow, "principal" | "rate_bps" | "term_months" | "start_time" | "total_repaid" | "fees_paid_through">): ServicedLoan {
  return {
    terms: { principal: BigInt(row.principal), rateBps: row.rate_bps, termMonths: row.term_months, start: BigInt(row.start_time) },
    repaid: BigInt(row.total_repaid),
    feesPaidThrough: row.fees_paid_through,
  };
}

async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** The note's last listing when it lapsed; left out of the marketplace's read, whose notes all have a live one. */
const LAPSE_COLUMNS = sql`, last.lapse_reason, last.lapse_amount::text as lapse_amount, last.closed_tx_hash as lapse_tx_hash`;
const LAPSE_JOIN = sql`
  left join lateral (select x.lapse_reason, x.lapse_amount, x.closed_tx_hash from chain_listings x
    where x.chain_id = n.chain_id and x.token_id = n.token_id and x.status = 'lapsed'
      and not exists (select 1 from chain_listings y where y.chain_id = x.chain_id and y.token_id = x.token_id
        and (y.block_number, y.log_index) > (x.block_number, x.log_index))
    ) last on true`;

const NOTE_SELECT = (chainId: number, lapse = true) => sql`
  select n.token_id::text as token_id, n.borrower, n.owner, n.holder, n.principal::text as principal, n.rate_bps, n.term_months,
    n.start_time::text as start_time, n.total_repaid::text as total_repaid, n.fees_paid_through, n.status, n.burned, n.origin_tx_hash, n.origin_time,
    l.id as loan_id, l.user_id as loan_user_id, l.purpose, l.status as loan_status, l.approval_date, l.created_at, l.updated_at,
    li.price::text as listing_price, li.seller as listing_seller, li.block_time as listing_time, li.tx_hash as listing_tx_hash,
    li.block_number::text as listing_block, li.log_index as listing_log_index,
    so.hash as order_hash, so.price::text as order_price, so.par_bps as order_par_bps, so.signer as order_signer, so.created_at as order_time,
    case when v.active then v.depositor else null end as depositor,
    cc.collection as pledge_collection, cc.collateral_id::text as pledge_token_id, nm.collection_name as pledge_collection_name,
    nm.name as pledge_name, nm.image as pledge_image, cc.state as pledge_state, cc.locked_tx_hash as pledge_locked_tx_hash,
    cc.closed_tx_hash as pledge_closed_tx_hash, cc.closed_to as pledge_closed_to, l.collateral_appraisal::text as pledge_appraisal,
    (select array_agg(distinct t.from_address) from chain_transfers t
       where t.chain_id = n.chain_id and t.token_id = n.token_id and t.from_address <> '0x0000000000000000000000000000000000000000') as previous_owners
    ${lapse ? LAPSE_COLUMNS : sql``}
  from chain_notes n
  left join loans l on l.loan_number::numeric = n.token_id
  left join chain_listings li on li.chain_id = n.chain_id and li.token_id = n.token_id and li.status = 'active'
  left join chain_vault_positions v on v.chain_id = n.chain_id and v.token_id = n.token_id
  left join chain_collateral cc on cc.chain_id = n.chain_id and cc.token_id = n.token_id
  left join nft_metadata nm on nm.chain_id = n.chain_id and nm.collection = cc.collection and nm.token_id = cc.collateral_id
  left join lateral (select o.hash, o.price, o.par_bps, o.signer, o.created_at from orders o
    where o.chain_id = n.chain_id and o.token_id = n.token_id and o.kind = 'listing' and o.status = 'open' and o.signer = n.owner and n.status = 'active'
    order by o.created_at desc limit 1) so on true
  ${lapse ? LAPSE_JOIN : sql``}
  where n.chain_id = ${chainId}`;

/**
 * `now` is the chain's clock (api/src/chain/chainClock.ts) and `fees` the deployment's late-fee terms: signed par
 * listings are priced by them.
 */
export function createNftsRepository(db: Db, chainId: number, now: () => Promise<bigint>, fees: () => Promise<FeeParams>) {
  const priced = async (list: NoteRow[]) => {
    const [at, terms] = await Promise.all([now(), fees()]);
    return list.map((row) => withSignedListing(row, at, terms));
  };
  return {
    /** Changes whenever the mirror moves (a new block indexed, or a reorg rewinding it). */
    async mirrorVersion(): Promise<string> {
      const [row] = await rows<{ block_number: string; block_hash: string }>(db, sql`select block_number::text as block_number, block_hash from chain_cursors where chain_id = ${chainId}`);
      return row ? `${row.block_number}:${row.block_hash}` : "none";
    },

    /** The last block the mirror has indexed, or -1 before the first. */
    async mirrorBlock(): Promise<number> {
      const [row] = await rows<{ block_number: string }>(db, sql`select block_number::text as block_number from chain_cursors where chain_id = ${chainId}`);
      return row ? Number(row.block_number) : -1;
    },

    /** Every note with a live listing: the marketplace, filtered and sorted by the caller (there are at most a few 10,000). */
    listed(): Promise<NoteRow[]> {
      // Notes listed only by signature are added by the marketplace index itself (browse.ts), with their best orders.
      return rows<NoteRow>(db, sql`${NOTE_SELECT(chainId, false)} and li.price is not null and not n.burned`);
    },

    /** These notes, for the marketplace's notes listed only by a signed order. */
    notesByIds(tokenIds: string[]): Promise<NoteRow[]> {
      if (tokenIds.length === 0) return Promise.resolve([]);
      const ids = sql.join(
        tokenIds.map((id) => sql`${id}::numeric`),
        sql`, `,
      );
      return rows<NoteRow>(db, sql`${NOTE_SELECT(chainId, false)} and n.token_id in (${ids}) and not n.burned`);
    },

    async note(tokenId: bigint): Promise<NoteRow | undefined> {
      const [row] = await rows<NoteRow>(db, sql`${NOTE_SELECT(chainId)} and n.token_id = ${tokenId.toString()}::numeric`);
      return row && withSignedListing(row, await now(), await fees());
    },

    /** Notes the wallet holds (owned, or deposited in the vault by it). */
    held(wallet: string): Promise<NoteRow[]> {
      return rows<NoteRow>(db, sql`${NOTE_SELECT(chainId)} and n.holder = ${wallet} and not n.burned order by n.token_id desc`).then(priced);
    },

    /** Notes of the user's own loans, or borrowed by the wallet, whoever holds them now (repaid ones included). */
    ofLoans(userId: string, wallet: string | null): Promise<NoteRow[]> {
      return rows<NoteRow>(db, sql`${NOTE_SELECT(chainId)} and (l.user_id = ${userId}::uuid ${wallet ? sql`or n.borrower = ${wallet}` : sql``}) order by n.token_id desc`).then(priced);
    },

    async credits(wallet: string): Promise<{ credited: bigint; withdrawn: bigint }> {
      const [row] = await rows<{ credited: string; withdrawn: string }>(
        db,
        sql`select credited::text as credited, withdrawn::text as withdrawn from chain_credits where chain_id = ${chainId} and account = ${wallet}`,
      );
      return { credited: BigInt(row?.credited ?? 0), withdrawn: BigInt(row?.withdrawn ?? 0) };
    },

    /** The note's moves with what each was: mint, sale, vault deposit or withdrawal, burn, or a plain transfer. */
    transfers(tokenId: bigint) {
      return rows<{
        from_address: string;
        to_address: string;
        tx_hash: string;
        block_number: string;
        log_index: number;
        block_time: Date | string | null;
        sale_price: string | null;
        vault_kind: string | null;
      }>(
        db,
        sql`select t.from_address, t.to_address, t.tx_hash, t.block_number::text as block_number, t.log_index, t.block_time,
              coalesce((select s.price::text from chain_sales s where s.chain_id = t.chain_id and s.tx_hash = t.tx_hash and s.token_id = t.token_id limit 1),
                (select f.price::text from chain_order_fills f where f.chain_id = t.chain_id and f.tx_hash = t.tx_hash and f.token_id = t.token_id limit 1)) as sale_price,
              (select m.kind from chain_vault_moves m where m.chain_id = t.chain_id and m.tx_hash = t.tx_hash and m.token_id = t.token_id limit 1) as vault_kind
            from chain_transfers t where t.chain_id = ${chainId} and t.token_id = ${tokenId.toString()}::numeric
            order by t.block_number, t.log_index`,
      );
    },

    repayments(tokenId: bigint) {
      return rows<{ payer: string; beneficiary: string; amount: string; total_repaid: string; tx_hash: string; block_number: string; block_time: Date | string | null }>(
        db,
        sql`select payer, beneficiary, amount::text as amount, total_repaid::text as total_repaid, tx_hash, block_number::text as block_number, block_time
            from chain_repayments where chain_id = ${chainId} and token_id = ${tokenId.toString()}::numeric order by block_number, log_index`,
      );
    },

    sales(tokenId: bigint) {
      return rows<{ seller: string; buyer: string; price: string; fee: string; tx_hash: string; block_number: string; block_time: Date | string | null }>(
        db,
        sql`select seller, buyer, price::text as price, fee::text as fee, tx_hash, block_number::text as block_number, block_time from (
              select seller, buyer, price, fee, tx_hash, block_number, log_index, block_time from chain_sales where chain_id = ${chainId} and token_id = ${tokenId.toString()}::numeric
              union all
              select seller, buyer, price, fee, tx_hash, block_number, log_index, block_time from chain_order_fills where chain_id = ${chainId} and token_id = ${tokenId.toString()}::numeric
            ) s order by block_number, log_index`,
      );
    },

    /** Listings of the note over time, for its history: price, seller, how each ended (and why, when it lapsed). */
    listings(tokenId: bigint) {
      return rows<{
        seller: string;
        price: string;
        status: string;
        lapse_reason: ListingLapseReason | null;
        lapse_amount: string | null;
        tx_hash: string;
        closed_tx_hash: string | null;
        block_number: string;
        block_time: Date | string | null;
        /** A signed par listing not filled: its price is a share of the outstanding principal, priced by the reader. */
        par_bps: number;
      }>(
        db,
        // On-chain listings, and the signed ones: a signed listing's "transaction" is its hash until a fill,
        // and its time is its fill's block time, else the chain's clock when it was stored (orders.chain_time), after
        // every block of that time (the chain's latest block then).
        sql`select seller, price::text as price, status, lapse_reason, lapse_amount::text as lapse_amount, tx_hash, closed_tx_hash, block_number::text as block_number, block_time, par_bps from (
              select seller, price, status, lapse_reason, lapse_amount, tx_hash, closed_tx_hash, block_number, block_time, 0 as par_bps, block_number as place
              from chain_listings where chain_id = ${chainId} and token_id = ${tokenId.toString()}::numeric
              union all
              select o.signer, coalesce(f.price, o.price),
                case when f.tx_hash is not null then 'sold' when o.status = 'cancelled' then 'cancelled'
                  when o.status = 'open' and n.status = 'active' and n.owner = o.signer then 'active' else 'lapsed' end,
                null, null, o.hash, f.tx_hash, coalesce(f.block_number, 0), coalesce(f.block_time, o.chain_time, o.created_at), case when f.tx_hash is null then o.par_bps else 0 end,
                coalesce(f.block_number, ${Number.MAX_SAFE_INTEGER}::bigint)
              from orders o
              left join lateral (select x.price, x.tx_hash, x.block_number, x.block_time from chain_order_fills x where x.chain_id = o.chain_id and x.order_hash = o.hash limit 1) f on true
              left join chain_notes n on n.chain_id = o.chain_id and n.token_id = o.token_id
              where o.chain_id = ${chainId} and o.token_id = ${tokenId.toString()}::numeric and o.kind = 'listing'
            ) h order by block_time nulls first, place`,
      );
    },

    /** The note's open signed listing by its holder, the one the marketplace shows when none is on-chain. */
    async signedListing(hash: string) {
      const [row] = await db
        .select()
        .from(orders)
        .where(and(eq(orders.chainId, chainId), eq(orders.hash, hash), eq(orders.status, "open")));
      return row;
    },

    /** Vault deposits and withdrawals of the notes the wallet moved, newest first (the vault page's history). */
    vaultMoves(wallet: string, limit = 50) {
      return rows<{ token_id: string; kind: string; tx_hash: string; block_number: string; block_time: Date | string | null }>(
        db,
        sql`select token_id::text as token_id, kind, tx_hash, block_number::text as block_number, block_time
            from chain_vault_moves where chain_id = ${chainId} and account = ${wallet} order by block_number desc, log_index desc limit ${limit}`,
      );
    },
  };
}

export type NftsRepository = ReturnType<typeof createNftsRepository>;
