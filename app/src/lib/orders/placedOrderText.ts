import type { WireOrder } from "#domain/wire/order";
import { orderStatusReason } from "./orderStatusText";

/** An order's kind in a sentence: a matching offer is an offer too. */
export const ORDER_KIND_WORD: Record<WireOrder["kind"], string> = { listing: "listing", offer: "offer", matchingOffer: "offer" };

/** The toast after signing: "in the order book" only when the book shows it, else stored and why not. */
export function placedOrderText(order: Pick<WireOrder, "kind" | "status" | "statusReason">, inBook: string): string {
  if (order.status === "open") return inBook;
  const reason = orderStatusReason(order);
  return `Your ${ORDER_KIND_WORD[order.kind]} is signed and stored, but it is not in the order book yet${reason ? `: ${reason}` : ""}`;
}
