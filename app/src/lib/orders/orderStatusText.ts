import { ORDER_STATUS_REASONS } from "#domain/orderStatus";
import type { OrderStatus } from "#domain/orders";
import type { WireOrder } from "#domain/wire/order";

/** An order's status as every list shows it. */
export const ORDER_STATUS_TEXT: Record<OrderStatus, string> = {
  open: "Open",
  filled: "Filled",
  cancelled: "Cancelled",
  expired: "Expired",
  lapsed: "Lapsed",
  late: "Late",
  unfunded: "Unfunded",
};

/** The badge colour of each: the ones that may turn open again (lapsed, late, unfunded) ask for attention. */
export const ORDER_STATUS_TONE: Record<OrderStatus, "success" | "warning" | "neutral"> = {
  open: "success",
  filled: "neutral",
  cancelled: "neutral",
  expired: "neutral",
  lapsed: "warning",
  late: "warning",
  unfunded: "warning",
};

/** Why an order is not open: the API's reason, or the rule's own words for a late note when the API gave none. */
export function orderStatusReason(order: Pick<WireOrder, "status" | "statusReason">): string | null {
  if (order.statusReason) return order.statusReason;
  return order.status === "late" ? ORDER_STATUS_REASONS.late : null;
}

/** Still worth cancelling: an order the chain could fill now (open) or again (unfunded, lapsed, late once cured). */
export const isCancellable = (order: Pick<WireOrder, "status">) => ["open", "unfunded", "lapsed", "late"].includes(order.status);
