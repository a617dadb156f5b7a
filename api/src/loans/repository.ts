import { and, asc, desc, eq, gte, inArray, sql, type SQL } from "drizzle-orm";
import { zeroAddress } from "viem";
import type { Db } from "#db/connect";
import { chainCollateral, chainCursors, chainListings, chainNotes, loanEvents, loans, nftMetadata, users, type LoanEventRow, type LoanRow, type NewLoanRow, type UserRow } from "#db/schema";
import type { LoanListQuery } from "#domain/schemas/loans";
import type { ChainCollateralState, ListingLapseReason, LoanStatus, MintStatus } from "#domain/statuses";
import type { ListingState } from "#db/schema/loans";
import { isUuid } from "#domain/uuid";

export type Borrower = Pick<UserRow, "id" | "firstName" | "lastName" | "email" | "walletAddress" | "kycStatus">;

/** What the mirror and the metadata cache know of a loan's pledged piece; all null when they know nothing. */
export interface PledgeMirror {
  chainState: ChainCollateralState | null;
  chainCollection: string | null;
  chainCollateralId: bigint | null;
  lockedTxHash: string | null;
  closedTxHash: string | null;
  closedTo: string | null;
  collectionName: string | null;
  name: string | null;
  image: string | null;
}

/** A loan with its borrower and what the chain mirror knows of its note and its pledged piece. */
export interface LoanView {
  loan: LoanRow;
  borrower: Borrower;
  totalRepaid: bigint;
  /** The note's feesPaidThrough, as the mirror follows LateFeesPaid. */
  feesPaidThrough: number;
  pledge: PledgeMirror;
}

/** Where and when the escrow's history happened on-chain; `time` null when the mirror has no block time. */
export interface ChainMoment {
  txHash: string;
  block: number;
  time: Date | null;
}

/** A note's escrow row with the moments of its lock, its last move and the note's burn (loans/repository collateralHistory). */
export interface CollateralHistory {
  state: ChainCollateralState;
  collection: string;
  collateralId: string;
  locked: ChainMoment;
  closed: (ChainMoment & { to: string | null }) | null;
  burn: ChainMoment | null;
}

interface CollateralHistoryRow {
  state: ChainCollateralState;
  collection: string;
  collateral_id: string;
  locked_tx_hash: string;
  locked_block: string | number;
  locked_time: Date | string | null;
  closed_tx_hash: string | null;
  closed_to: string | null;
  updated_block: string | number;
  burn_tx_hash: string | null;
  burn_block: string | number | null;
  burn_time: Date | string | null;
  closed_time: Date | string | null;
}

export interface LoanEvent {
  action: string;
  actorId?: string | null;
  notes?: string | null;
  txHash?: string | null;
}

const SORT_COLUMNS = {
  requestDate: loans.createdAt,
  createdAt: loans.createdAt,
  amount: loans.amount,
  interestRate: loans.rateBps,
  termMonths: loans.termMonths,
} as const;

export function createLoansRepository(db: Db, chainId: number) {
  const borrowerColumns = {
    id: users.id,
    firstName: users.firstName,
    lastName: users.lastName,
    email: users.email,
    walletAddress: users.walletAddress,
    kycStatus: users.kycStatus,
  };
  const repaidColumn = sql<string | null>`${chainNotes.totalRepaid}`;
  const feesColumn = sql<number | null>`${chainNotes.feesPaidThrough}`;
  const pledgeColumns = {
    chainState: chainCollateral.state,
    chainCollection: chainCollateral.collection,
    chainCollateralId: chainCollateral.collateralId,
    lockedTxHash: chainCollateral.lockedTxHash,
    closedTxHash: chainCollateral.closedTxHash,
    closedTo: chainCollateral.closedTo,
    collectionName: nftMetadata.collectionName,
    name: nftMetadata.name,
    image: nftMetadata.image,
  };
  // The escrow row of the loan's note, and the metadata of the piece it holds (or, before origination, the pledged one).
  const selectViews = () =>
    db
      .select({ loan: loans, borrower: borrowerColumns, totalRepaid: repaidColumn, feesPaidThrough: feesColumn, pledge: pledgeColumns })
      .from(loans)
      .innerJoin(users, eq(users.id, loans.userId))
      .leftJoin(chainNotes, and(eq(chainNotes.chainId, chainId), sql`${chainNotes.tokenId} = ${loans.loanNumber}::numeric`))
      .leftJoin(chainCollateral, and(eq(chainCollateral.chainId, chainId), sql`${chainCollateral.tokenId} = ${loans.loanNumber}::numeric`))
      .leftJoin(
        nftMetadata,
        and(
          eq(nftMetadata.chainId, chainId),
          sql`${nftMetadata.collection} = coalesce(${chainCollateral.collection}, ${loans.collateralCollection})`,
          sql`${nftMetadata.tokenId} = coalesce(${chainCollateral.collateralId}, ${loans.collateralTokenId})`,
        ),
      );
  const NO_PLEDGE: PledgeMirror = {
    chainState: null,
    chainCollection: null,
    chainCollateralId: null,
    lockedTxHash: null,
    closedTxHash: null,
    closedTo: null,
    collectionName: null,
    name: null,
    image: null,
  };
  const toView = (row: { loan: LoanRow; borrower: Borrower; totalRepaid: string | bigint | null; feesPaidThrough: number | null; pledge: Partial<PledgeMirror> | null }): LoanView => ({
    loan: row.loan,
    borrower: row.borrower,
    totalRepaid: row.totalRepaid === null ? 0n : BigInt(row.totalRepaid),
    feesPaidThrough: row.feesPaidThrough ?? 0,
    pledge: { ...NO_PLEDGE, ...row.pledge },
  });

  async function addEvent(loanId: string, event: LoanEvent, tx: Db = db): Promise<void> {
    await tx.insert(loanEvents).values({ loanId, action: event.action, actorId: event.actorId ?? null, notes: event.notes ?? null, txHash: event.txHash ?? null });
  }

  /** One conditional update plus its timeline entry, in one transaction; undefined when the condition no longer holds. */
  async function transition(id: string, where: SQL | undefined, values: Partial<NewLoanRow>, event?: LoanEvent): Promise<LoanRow | undefined> {
    if (!isUuid(id)) return undefined;
    return db.transaction(async (tx) => {
      const [row] = await tx
        .update(loans)
        .set({ ...values, updatedAt: new Date() })
        .where(and(eq(loans.id, id), where))
        .returning();
      if (row && event) await addEvent(id, event, tx as unknown as Db);
      return row;
    });
  }

  return {
    addEvent,
    transition,

    /** Per note, why its last listing lapsed (none is live then), the repayment that did it and the transaction. */
    async listingLapses(tokenIds: bigint[]): Promise<Map<string, { reason: ListingLapseReason; amount: bigint | null; txHash: string | null }>> {
      const found = new Map<string, { reason: ListingLapseReason; amount: bigint | null; txHash: string | null }>();
      if (tokenIds.length === 0) return found;
      const rows = await db
        .select({ tokenId: chainListings.tokenId, reason: chainListings.lapseReason, amount: chainListings.lapseAmount, txHash: chainListings.closedTxHash })
        .from(chainListings)
        .where(
          and(
            eq(chainListings.chainId, chainId),
            eq(chainListings.status, "lapsed"),
            sql`${chainListings.tokenId} = any(${sql.param(`{${tokenIds.join(",")}}`)}::numeric[])`,
            sql`not exists (select 1 from ${chainListings} y where y.chain_id = ${chainListings.chainId} and y.token_id = ${chainListings.tokenId}
              and (y.block_number, y.log_index) > (${chainListings.blockNumber}, ${chainListings.logIndex}))`,
          ),
        );
      for (const row of rows) if (row.reason) found.set(row.tokenId.toString(), { reason: row.reason, amount: row.amount, txHash: row.txHash });
      return found;
    },

    /**
     * Undefined when `maxPending` is given and the borrower already has that many requests awaiting review; "pledged"
     * when the request pledges a piece another pending or approved request already pledges.
     */
    async insert(values: Omit<NewLoanRow, "loanNumber">, event: LoanEvent, maxPending?: number): Promise<LoanRow | undefined | "pledged"> {
      return db.transaction(async (tx) => {
        if (values.collateralCollection && values.collateralTokenId !== null && values.collateralTokenId !== undefined) {
          // One piece, one open request: the piece's lock makes the check and the insert one step for concurrent requests.
          const piece = `${values.collateralCollection}:${values.collateralTokenId}`;
          await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${piece}, 20))`);
          const [taken] = await tx
            .select({ id: loans.id })
            .from(loans)
            .where(and(eq(loans.collateralCollection, values.collateralCollection), eq(loans.collateralTokenId, values.collateralTokenId), inArray(loans.status, ["pending", "approved"])))
            .limit(1);
          if (taken) return "pledged";
        }
        if (maxPending !== undefined) {
          // The borrower's row lock makes the count and the insert one step: concurrent requests cannot all pass the cap.
          await tx.select({ id: users.id }).from(users).where(eq(users.id, values.userId)).for("update");
          const [{ pending }] = await tx
            .select({ pending: sql<number>`count(*)::int` })
            .from(loans)
            .where(and(eq(loans.userId, values.userId), eq(loans.status, "pending")));
          if (pending >= maxPending) return undefined;
        }
        const [row] = await tx.insert(loans).values(values).returning();
        await addEvent(row.id, event, tx as unknown as Db);
        return row;
      });
    },

    async findById(id: string): Promise<LoanRow | undefined> {
      if (!isUuid(id)) return undefined;
      const [row] = await db.select().from(loans).where(eq(loans.id, id)).limit(1);
      return row;
    },

    async findByLoanNumber(loanNumber: bigint): Promise<LoanRow | undefined> {
      const [row] = await db.select().from(loans).where(eq(loans.loanNumber, loanNumber)).limit(1);
      return row;
    },

    async view(id: string): Promise<LoanView | undefined> {
      if (!isUuid(id)) return undefined;
      const [row] = await selectViews().where(eq(loans.id, id)).limit(1);
      return row ? toView(row) : undefined;
    },

    /**
     * The escrow's history of the loan's note, for its timeline: the lock, the last move, and the note's
     * burn (a final payment or a claim burns it in the transaction that moves the piece). Each with its block and,
     * when the mirror has it, its time; the closing move's time is the mirrored log of its transaction (the burn), if any.
     */
    async collateralHistory(loanNumber: bigint): Promise<CollateralHistory | undefined> {
      const result = (await db.execute(sql`
        select c.state, c.collection, c.collateral_id::text as collateral_id, c.locked_tx_hash, c.locked_block, c.locked_time,
          c.closed_tx_hash, c.closed_to, c.updated_block,
          b.tx_hash as burn_tx_hash, b.block_number as burn_block, b.block_time as burn_time,
          (select t.block_time from chain_transfers t where t.chain_id = c.chain_id and t.tx_hash = c.closed_tx_hash and t.block_time is not null limit 1) as closed_time
        from chain_collateral c
        left join lateral (
          select t.tx_hash, t.block_number, t.block_time from chain_transfers t
          where t.chain_id = c.chain_id and t.token_id = c.token_id and t.to_address = ${zeroAddress}
          order by t.block_number desc, t.log_index desc limit 1) b on true
        where c.chain_id = ${chainId} and c.token_id = ${loanNumber.toString()}::numeric`)) as unknown as { rows: CollateralHistoryRow[] };
      const row = result.rows[0];
      if (!row) return undefined;
      const time = (value: Date | string | null) => (value === null ? null : new Date(value));
      return {
        state: row.state,
        collection: row.collection,
        collateralId: row.collateral_id,
        locked: { txHash: row.locked_tx_hash, block: Number(row.locked_block), time: time(row.locked_time) },
        closed: row.closed_tx_hash ? { txHash: row.closed_tx_hash, block: Number(row.updated_block), time: time(row.closed_time), to: row.closed_to } : null,
        burn: row.burn_tx_hash ? { txHash: row.burn_tx_hash, block: Number(row.burn_block), time: time(row.burn_time) } : null,
      };
    },

    async events(loanId: string): Promise<(LoanEventRow & { actorName: string | null; actorEmail: string | null })[]> {
      const rows = await db
        .select({ event: loanEvents, firstName: users.firstName, lastName: users.lastName, email: users.email })
        .from(loanEvents)
        .leftJoin(users, eq(users.id, loanEvents.actorId))
        .where(eq(loanEvents.loanId, loanId))
        .orderBy(asc(loanEvents.createdAt), asc(loanEvents.id));
      return rows.map((r) => ({ ...r.event, actorName: r.firstName ? `${r.firstName} ${r.lastName}`.trim() : null, actorEmail: r.email }));
    },

    /** A page of loans, the user's own when userId is given; search matches purpose, loan number and borrower. */
    async list(query: LoanListQuery, userId?: string): Promise<{ views: LoanView[]; total: number }> {
      const conditions: SQL[] = [];
      if (userId) conditions.push(eq(loans.userId, userId));
      if (query.status) conditions.push(eq(loans.status, query.status));
      if (query.minAmount !== undefined) conditions.push(gte(loans.amount, query.minAmount));
      if (query.search) {
        const like = `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        conditions.push(
          sql`(${loans.purpose} ilike ${like} or ${loans.loanNumber}::text = ${query.search.replace(/^#/, "")} or ${users.email} ilike ${like} or (${users.firstName} || ' ' || ${users.lastName}) ilike ${like} or ${loans.status} ilike ${like})`,
        );
      }
      const where = conditions.length ? and(...conditions) : undefined;
      const column = SORT_COLUMNS[query.sortBy];
      const order = query.sortOrder === "asc" ? asc(column) : desc(column);
      const rows = await selectViews()
        .where(where)
        .orderBy(order, desc(loans.loanNumber))
        .limit(query.limit)
        .offset((query.page - 1) * query.limit);
      const [{ count }] = await db
        .select({ count: sql<number>`count(*)::int` })
        .from(loans)
        .innerJoin(users, eq(users.id, loans.userId))
        .where(where);
      return { views: rows.map(toView), total: count };
    },

    async withMintStatus(statuses: MintStatus[]): Promise<LoanRow[]> {
      return db.select().from(loans).where(inArray(loans.mintStatus, statuses));
    },

    async withListingStatus(statuses: ListingState[]): Promise<LoanRow[]> {
      return db
        .select()
        .from(loans)
        .where(and(inArray(loans.listingStatus, statuses), eq(loans.mintStatus, "minted")));
    },

    async withStatus(statuses: LoanStatus[]): Promise<LoanRow[]> {
      return db.select().from(loans).where(inArray(loans.status, statuses)).orderBy(asc(loans.loanNumber));
    },

    /** Counts and sums per status, for the admin statistics. */
    async statusTotals(): Promise<{ status: LoanStatus; count: number; amount: bigint; principal: bigint }[]> {
      const rows = await db
        .select({
          status: loans.status,
          count: sql<number>`count(*)::int`,
          amount: sql<string>`coalesce(sum(${loans.amount}), 0)::text`,
          principal: sql<string>`coalesce(sum(${loans.principal}), 0)::text`,
        })
        .from(loans)
        .groupBy(loans.status);
      return rows.map((r) => ({ status: r.status, count: r.count, amount: BigInt(r.amount), principal: BigInt(r.principal) }));
    },

    /** The block the chain mirror has indexed up to (-1 before its first batch). */
    async mirrorBlock(): Promise<number> {
      const [row] = await db.select({ block: chainCursors.blockNumber }).from(chainCursors).where(eq(chainCursors.chainId, chainId));
      return row ? Number(row.block) : -1;
    },

    async recent(limit: number): Promise<LoanView[]> {
      const rows = await selectViews().orderBy(desc(loans.createdAt), desc(loans.loanNumber)).limit(limit);
      return rows.map(toView);
    },
  };
}

export type LoansRepository = ReturnType<typeof createLoansRepository>;
