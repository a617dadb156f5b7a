import type { noteMarketplaceAbi } from "#domain/abis";
import { formatUsdAmount } from "#domain/money";
import { chainOrderCancellations, chainOrderFills } from "#db/schema/chain";
import { logRow, type Handlers } from "../context";

type OrderEvents = "OrderFilled" | "OrderCancelled" | "CounterIncremented";

/**
 * The signed orders' events (contracts/NoteOrders.sol, inherited by NoteMarketplace). Fills and cancellations are
 * log rows (a reorg deletes them above the common ancestor); a signer's counter is a derived row (the undo journal
 * puts it back). Which order a hash is, and who signed it, is the API's book (orders): the mirror keeps only what
 * the chain says, so it can be rebuilt from the logs alone.
 *
 * Each fill, cancellation and counter also pushes `orderbook:update` (the note's book changed) to the marketplace
 * room and the accounts involved; a fill pushes `marketplace:update` "sold" too, as an on-chain listing's sale does.
 * The stored notices of a fill (the signer's "listing filled" / "offer filled") are the API's to address, since only
 * its book knows the signer (api/src/realtime/outboxNotifications.ts).
 */
export const orderHandlers: Pick<Handlers<typeof noteMarketplaceAbi>, OrderEvents> = {
  OrderFilled(event, ctx) {
    const { orderHash, tokenId, seller, buyer, price, fee } = event.args;
    const hash = orderHash.toLowerCase();
    ctx.insert(chainOrderFills, { ...logRow(event, ctx), orderHash: hash, tokenId, seller, buyer, price, fee });
    const refs = { nftId: tokenId.toString(), tokenId: tokenId.toString(), txHash: event.txHash };
    ctx.emit({
      event: "marketplace:update",
      payload: { type: "sold", amount: formatUsdAmount(price), ...refs, orderHash: hash },
      rooms: ["marketplace"],
      wallets: [seller, buyer],
    });
    ctx.emit({
      event: "orderbook:update",
      payload: { tokenId: refs.tokenId, hash, status: "filled", amount: formatUsdAmount(price), seller, buyer, txHash: event.txHash },
      rooms: ["marketplace"],
      wallets: [seller, buyer],
    });
  },

  OrderCancelled(event, ctx) {
    const { signer, orderHash } = event.args;
    const hash = orderHash.toLowerCase();
    ctx.insert(chainOrderCancellations, { ...logRow(event, ctx), signer, orderHash: hash });
    // The log names no note: the API's book knows it (null for a hash it never stored, or a matching offer).
    ctx.emit({ event: "orderbook:update", payload: { tokenId: null, hash, status: "cancelled", signer, txHash: event.txHash }, rooms: ["marketplace"], wallets: [signer] });
  },

  CounterIncremented(event, ctx) {
    const { signer, counter } = event.args;
    ctx.orderCounters.put({ chainId: ctx.chainId, signer, counter, updatedBlock: event.blockNumber }, event);
    // Every order the signer made before is cancelled at once: no one hash, no one note.
    ctx.emit({
      event: "orderbook:update",
      payload: { tokenId: null, hash: null, status: "cancelled", signer, counter: counter.toString(), txHash: event.txHash },
      rooms: ["marketplace"],
      wallets: [signer],
    });
  },
};
