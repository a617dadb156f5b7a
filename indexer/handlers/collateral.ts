import type { collateralEscrowAbi } from "#domain/abis";
import type { CollateralUpdatePayload } from "#domain/events";
import type { ChainCollateralState } from "#domain/statuses";
import type { chainCollateral } from "#db/schema/chain";
import type { ChainEvent } from "../decode";
import { ZERO_ADDRESS, type Context, type Handlers } from "../context";

type CollateralEvents = "CollectionAllowed" | "CollectionDisallowed" | "CollateralLocked" | "CollateralReturned" | "CollateralReturnFailed" | "CollateralClaimed" | "CollateralMoved";

type CollateralRow = typeof chainCollateral.$inferSelect;

/**
 * Who held a note just before its burn (loanNote.ts keeps it for the claim that burned it: LoanNote's burn is logged
 * before the escrow's CollateralClaimed of the same transaction, and the batch handles logs in chain order).
 */
export const burnedHolderKey = (tokenId: bigint) => `burnedHolder:${tokenId}`;

function requirePledge(ctx: Context, tokenId: bigint, event: ChainEvent): CollateralRow {
  const row = ctx.collateral.get(tokenId);
  if (!row) throw new Error(`${event.name} of note ${tokenId} at ${event.txHash}:${event.logIndex} before its CollateralLocked`);
  return row;
}

/**
 * Pushes `collateral:update` for a pledge's move: to the borrower with the admins and the marketplace (with the
 * loan's id when a loan follows the note), and, in a second row marked `audience: "holder"`, to the note's holder (and a
 * claim's receiver) when that is someone else. Two rows like a default's loan:status (indexer/loans.ts): the API
 * stores each audience its own words (api/src/realtime/outboxNotifications.ts), and it sees rooms, not whose wallet each is.
 */
function pushUpdate(ctx: Context, row: CollateralRow, event: ChainEvent, to: string | null, holders: (string | undefined)[], movedFrom?: bigint): void {
  const payload: CollateralUpdatePayload = {
    tokenId: row.tokenId.toString(),
    state: row.state,
    collection: row.collection,
    collateralId: row.collateralId.toString(),
    ...(to ? { to } : {}),
    ...(movedFrom === undefined ? {} : { movedFrom: movedFrom.toString() }),
    txHash: event.txHash,
  };
  ctx.emit({ event: "collateral:update", payload: { ...payload }, rooms: ["admins", "marketplace"], wallets: [row.borrower], loanOf: row.tokenId });
  const others = [...new Set(holders)].filter((wallet): wallet is string => !!wallet && wallet !== ZERO_ADDRESS && wallet !== row.borrower && wallet !== ctx.addresses.treasury);
  const toHolders: CollateralUpdatePayload = { ...payload, audience: "holder" };
  if (others.length > 0) ctx.emit({ event: "collateral:update", payload: { ...toHolders }, wallets: others });
}

/** The note's holder now, or the one it had before the burn this transaction made (a claim, the final payment). */
function holderOf(ctx: Context, tokenId: bigint): string | undefined {
  return (ctx.scratch.get(burnedHolderKey(tokenId)) as string | undefined) ?? ctx.notes.get(tokenId)?.holder;
}

/**
 * A pledge leaving `locked`. `to` is the wallet the event names: the receiver of a return or a claim (kept as
 * closedTo), or the borrower a refused return was meant for (only pushed, so their app can say it waits for them).
 */
function close(ctx: Context, event: ChainEvent, tokenId: bigint, state: ChainCollateralState, to: string, holders: (string | undefined)[] = []) {
  const pledge = requirePledge(ctx, tokenId, event);
  const row = { ...pledge, state, closedTxHash: event.txHash, closedTo: state === "returnFailed" ? null : to, updatedBlock: event.blockNumber };
  ctx.collateral.put(row, event);
  pushUpdate(ctx, row, event, to, [holderOf(ctx, tokenId), ...holders]);
}

/**
 * The CollateralEscrow's allow-list and pledges (docs/decisions.md "NFT collateral off-chain"). The allow-list is a
 * derived row per collection (its slot kept when disallowed); a pledge is one derived row per note from
 * CollateralLocked on: `locked` → `returned`, or `returnFailed` → `returned` by the borrower's pull, or `claimed`
 * after a default, or `moved` when a refinance re-recorded it for the new note (whose own row starts `locked`, from the
 * move's transaction: the piece never left the escrow). The undo journal puts both back on a reorg. Which collections' Transfers are followed, and the
 * catch-up of one newly allowed, is indexer/collections.ts's.
 */
export const collateralHandlers: Pick<Handlers<typeof collateralEscrowAbi>, CollateralEvents> = {
  CollectionAllowed(event, ctx) {
    const { collection, index } = event.args;
    const known = ctx.collections.get(collection);
    const slot = Number(index);
    const row = known
      ? { ...known, allowed: true, slot, updatedBlock: event.blockNumber }
      : { chainId: ctx.chainId, collection, allowed: true, slot, allowedBlock: event.blockNumber, updatedBlock: event.blockNumber };
    ctx.collections.put(row, event);
  },

  CollectionDisallowed(event, ctx) {
    const { collection } = event.args;
    const known = ctx.collections.get(collection);
    if (!known) throw new Error(`CollectionDisallowed of ${collection} at ${event.txHash}:${event.logIndex} before it was allowed`);
    ctx.collections.put({ ...known, allowed: false, updatedBlock: event.blockNumber }, event);
  },

  CollateralLocked(event, ctx) {
    const { tokenId, collection, collateralId, from } = event.args;
    const row: CollateralRow = {
      chainId: ctx.chainId,
      tokenId,
      collection,
      collateralId,
      borrower: from,
      state: "locked",
      lockedTxHash: event.txHash,
      lockedBlock: event.blockNumber,
      lockedTime: event.blockTime,
      closedTxHash: null,
      closedTo: null,
      updatedBlock: event.blockNumber,
    };
    ctx.collateral.put(row, event);
    pushUpdate(ctx, row, event, null, [ctx.notes.get(tokenId)?.holder]);
  },

  CollateralReturned(event, ctx) {
    close(ctx, event, event.args.tokenId, "returned", event.args.to);
  },

  CollateralReturnFailed(event, ctx) {
    close(ctx, event, event.args.tokenId, "returnFailed", event.args.borrower);
  },

  CollateralClaimed(event, ctx) {
    close(ctx, event, event.args.tokenId, "claimed", event.args.to, [event.args.to]);
  },

  /** Logged before the new note's mint: pushed so pages refresh, the refinance's own push (loanNote.ts) is the news. */
  CollateralMoved(event, ctx) {
    const { tokenId, newTokenId } = event.args;
    const pledge = requirePledge(ctx, tokenId, event);
    ctx.collateral.put({ ...pledge, state: "moved", closedTxHash: event.txHash, closedTo: null, updatedBlock: event.blockNumber }, event);
    const row: CollateralRow = {
      ...pledge,
      tokenId: newTokenId,
      state: "locked",
      lockedTxHash: event.txHash,
      lockedBlock: event.blockNumber,
      lockedTime: event.blockTime,
      closedTxHash: null,
      closedTo: null,
      updatedBlock: event.blockNumber,
    };
    ctx.collateral.put(row, event);
    pushUpdate(ctx, row, event, null, [holderOf(ctx, tokenId)], tokenId);
  },
};
