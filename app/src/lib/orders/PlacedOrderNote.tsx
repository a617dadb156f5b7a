import type { WireOrder } from "#domain/wire/order";
import { FundingNote } from "./FundingNote";
import { useMyOrders } from "./getMyOrders";
import { offerMost } from "./offerExposure";
import { orderStatusReason } from "./orderStatusText";
import { ORDER_KIND_WORD } from "./placedOrderText";

/**
 * After a signature, where the order stands as the order book judges it now (read again from the user's orders, so
 * it turns "in the book" as soon as an allowance makes it open). An unfunded offer says why and offers the one
 * approve that funds it together with the user's other open offers.
 */
export function PlacedOrderNote({ order }: { order: WireOrder }) {
  const mine = useMyOrders().data?.made.find((o) => o.hash === order.hash);
  const now = mine ?? order;
  if (now.status === "open") {
    return (
      <p className="alert alert--success small" role="status" data-testid="order-in-book">
        Your {ORDER_KIND_WORD[now.kind]} is in the order book.
      </p>
    );
  }
  const reason = orderStatusReason(now);
  return (
    <div className="alert alert--warning stack" role="status" data-testid="order-not-in-book">
      <p>
        Your {ORDER_KIND_WORD[now.kind]} is signed and stored, but it is not in the order book yet{reason ? `: ${reason}` : ""}. Nobody sees it or can accept it until then.
      </p>
      {now.status === "unfunded" && now.kind !== "listing" && (
        <>
          <p className="small">It turns open, and shows in the book, once your wallet holds and allows what your open offers can take.</p>
          <FundingNote most={offerMost(now)} orderHash={now.hash} />
        </>
      )}
    </div>
  );
}
