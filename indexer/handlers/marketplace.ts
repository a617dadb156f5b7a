import type { noteMarketplaceAbi } from "#domain/abis";
import { formatUsdAmount } from "#domain/money";
import type { ListingLapseReason } from "#domain/statuses";
import { chainListings, chainSales } from "#db/schema/chain";
import type { ChainEvent } from "../decode";
import { logRow, type Context, type Handlers } from "../context";
import { orderHandlers } from "./orders";

type ListingRow = typeof chainListings.$inferSelect;

function marketplaceUpdate(ctx: Context, event: ChainEvent, type: string, tokenId: bigint, amount: bigint | null, wallets: string[] = []) {
  ctx.emit({
    event: "marketplace:update",
    payload: { type, amount: amount === null ? null : formatUsdAmount(amount), nftId: tokenId.toString(), tokenId: tokenId.toString(), txHash: event.txHash },
    rooms: ["marketplace"],
    wallets,
  });
}

function close(ctx: Context, event: ChainEvent, listing: ListingRow, status: ListingRow["status"], lapse: Lapse | null = null) {
  ctx.listings.put({ ...listing, status, lapseReason: lapse?.reason ?? null, lapseAmount: lapse?.amount ?? null, updatedBlock: event.blockNumber, closedTxHash: event.txHash }, event);
}

/** Why a listing lapsed, and for a repayment how much was repaid. */
export interface Lapse {
  reason: ListingLapseReason;
  amount?: bigint;
}

/**
 * A listing dies when its note changes in a way its buyer priced: a move, a burn, a repayment or a default (the
 * note's counter that NoteMarketplace checks). Its holder hears why, unless the holder is the treasury, which is no
 * user: the API lists the treasury's note again itself (api/src/treasury/relist.ts).
 */
export function lapseListing(event: ChainEvent, ctx: Context, tokenId: bigint, lapse: Lapse): void {
  const listing = ctx.listings.find(tokenId);
  if (!listing) return;
  close(ctx, event, listing, "lapsed", lapse);
  const amount = lapse.amount ?? null;
  ctx.emit({
    event: "marketplace:update",
    payload: {
      type: "unlisted",
      amount: amount === null ? null : formatUsdAmount(amount),
      nftId: tokenId.toString(),
      tokenId: tokenId.toString(),
      txHash: event.txHash,
      lapsed: lapse.reason,
    },
    rooms: ["marketplace"],
    wallets: listing.seller === ctx.addresses.treasury ? [] : [listing.seller],
  });
}

export const marketplaceHandlers: Handlers<typeof noteMarketplaceAbi> = {
  Listed(event, ctx) {
    const { tokenId, seller, price } = event.args;
    const previous = ctx.listings.find(tokenId);
    if (previous) close(ctx, event, previous, "cancelled"); // listing again overwrites the old one
    ctx.listings.put({ ...logRow(event, ctx), tokenId, seller, price, status: "active", updatedBlock: event.blockNumber, closedTxHash: null, lapseReason: null, lapseAmount: null }, event);
    marketplaceUpdate(ctx, event, "listed", tokenId, price, [seller]);
  },

  ListingUpdated(event, ctx) {
    const { tokenId, price } = event.args;
    const listing = ctx.listings.find(tokenId);
    if (!listing) return;
    ctx.listings.put({ ...listing, price, updatedBlock: event.blockNumber }, event);
    marketplaceUpdate(ctx, event, "price_updated", tokenId, price, [listing.seller]);
  },

  ListingCancelled(event, ctx) {
    const { tokenId } = event.args;
    // Cancelling a listing that already lapsed is allowed on-chain and changes nothing visible.
    const listing = ctx.listings.find(tokenId);
    if (!listing) return;
    close(ctx, event, listing, "cancelled");
    marketplaceUpdate(ctx, event, "unlisted", tokenId, null, [listing.seller]);
  },

  Sold(event, ctx) {
    const { tokenId, seller, buyer, price, fee } = event.args;
    ctx.insert(chainSales, { ...logRow(event, ctx), tokenId, seller, buyer, price, fee });
    const listing = ctx.listings.find(tokenId);
    if (listing) close(ctx, event, listing, "sold");
    marketplaceUpdate(ctx, event, "sold", tokenId, price, [seller, buyer]);
  },

  ...orderHandlers,
};
