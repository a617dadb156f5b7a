import { parseUsd } from "#domain/money";
import { orderPriceFor } from "#domain/orderStatus";
import type { WireServicing } from "#domain/wire/servicing";
import type { WireOrder } from "#domain/wire/order";
import { payoffSplitOf } from "../servicing/payoffSplitOf";

type Priced = Pick<WireOrder, "priceKind" | "price" | "parBps" | "cap" | "priceNow">;

/**
 * What a fill of `order` pays now, priced from the note's own record: a par price is the dirty price of the record's
 * principal and interest now (at most an offer's cap), so the price and its breakdown beside it agree to the unit.
 * Without the note's servicing (or for a fixed price) it is the API's price now; null when that is unknown too.
 */
export function orderPriceNow(order: Priced, servicing: WireServicing | null | undefined): bigint | null {
  if (order.priceKind !== "par" || !servicing) return order.priceNow ? parseUsd(order.priceNow) : null;
  const terms = { price: 0n, parBps: BigInt(order.parBps), cap: order.cap ? parseUsd(order.cap) : null };
  return orderPriceFor(terms, payoffSplitOf(servicing));
}
