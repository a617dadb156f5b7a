import { formatUsdAmount } from "../../domain/money";
import { chainListings, chainSales } from "../../db/schema/chain";
import type { ChainEvent } from "../decode";
import { logRow, type Context, type Handlers } from "../context";

type ListingRow = typeof chainListings.$inferSelect;

function marketplaceUpdate(ctx: Context, event: ChainEvent, type: string, tokenId: bigint, amount: bigint | null, wallets: string[] = []) {
  ctx.emit({
    event: "marketplace:update",
    payload: { type, amount: amount === null ? null : formatUsdAmount(amount), nftId: tokenId.toString(), tokenId: tokenId.toString(), txHash: event.txHash },
    rooms: ["marketplace"],
    wallets,
  });
}

function close(ctx: Context, event: ChainEvent, listing: ListingRow, status: ListingRow["status"]) {
  ctx.listings.put({ ...listing, status, updatedBlock: event.blockNumber, closedTxHash: event.txHash }, event);
}

/** A listing dies when its note moves or burns (NoteMarketplace checks the note's move count). */
export function lapseListing(event: ChainEvent, ctx: Context, tokenId: bigint): void {
  const listing = ctx.listings.find(tokenId);
  if (!listing) return;
  close(ctx, event, listing, "lapsed");
  marketplaceUpdate(ctx, event, "unlisted", tokenId, null, [listing.seller]);
}

export const marketplaceHandlers: Handlers = {
  Listed(event, ctx) {
    const { tokenId, seller, price } = event.args as { tokenId: bigint; seller: string; price: bigint };
    const previous = ctx.listings.find(tokenId);
    if (previous) close(ctx, event, previous, "cancelled"); // listing again overwrites the old one
    ctx.listings.put(
      { ...logRow(event, ctx), tokenId, seller, price, status: "active", updatedBlock: event.blockNumber, closedTxHash: null },
      event,
    );
    marketplaceUpdate(ctx, event, "listed", tokenId, price, [seller]);
  },

  ListingUpdated(event, ctx) {
    const { tokenId, price } = event.args as { tokenId: bigint; price: bigint };
    const listing = ctx.listings.find(tokenId);
    if (!listing) return;
    ctx.listings.put({ ...listing, price, updatedBlock: event.blockNumber }, event);
    marketplaceUpdate(ctx, event, "price_updated", tokenId, price, [listing.seller]);
  },

  ListingCancelled(event, ctx) {
    const { tokenId } = event.args as { tokenId: bigint };
    // Cancelling a listing that already lapsed is allowed on-chain and changes nothing visible.
    const listing = ctx.listings.find(tokenId);
    if (!listing) return;
    close(ctx, event, listing, "cancelled");
    marketplaceUpdate(ctx, event, "unlisted", tokenId, null, [listing.seller]);
  },

  Sold(event, ctx) {
    const { tokenId, seller, buyer, price, fee } = event.args as { tokenId: bigint; seller: string; buyer: string; price: bigint; fee: bigint };
    ctx.insert(chainSales, { ...logRow(event, ctx), tokenId, seller, buyer, price, fee });
    const listing = ctx.listings.find(tokenId);
    if (listing) close(ctx, event, listing, "sold");
    marketplaceUpdate(ctx, event, "sold", tokenId, price, [seller, buyer]);
  },
};
