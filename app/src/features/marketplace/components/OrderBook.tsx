import type { UseQueryResult } from "@tanstack/react-query";
import { formatUsdAmount } from "#domain/money";
import type { OrderBook as Book, WireOrder } from "#domain/wire/order";
import type { WireServicing } from "#domain/wire/servicing";
import { Spinner } from "../../../components/Spinner";
import { shortAddress, usd } from "../../../lib/format";
import { bpsText } from "../../../lib/orders/bpsText";
import { expiryText, matchingRanges } from "../../../lib/orders/orderWords";
import { orderPriceNow } from "../../../lib/orders/orderPriceNow";
import { ORDER_STATUS_TEXT, ORDER_STATUS_TONE, orderStatusReason } from "../../../lib/orders/orderStatusText";
import { servicingLabel } from "../../../lib/servicing/servicingWords";

const termsOf = (o: WireOrder) => (o.priceKind === "par" ? `${bpsText(o.parBps)} of par${o.cap ? `, at most ${usd(o.cap)}` : ""}` : "Fixed price");

const priceText = (o: WireOrder, servicing: WireServicing) => {
  // A matching offer's price for this note is the API's (its ranges decide whether it applies at all).
  const micro = o.kind === "matchingOffer" ? null : orderPriceNow(o, servicing);
  return usd(micro === null ? o.priceNow : formatUsdAmount(micro));
};

/** An order the book lists that a fill would refuse now (the note is late): marked with why, never shown as open. */
function NotOpen({ order }: { order: WireOrder }) {
  if (order.status === "open") return null;
  const reason = orderStatusReason(order);
  return (
    <div className="small" data-testid="book-order-status">
      <span className={`badge badge--${ORDER_STATUS_TONE[order.status]}`}>{ORDER_STATUS_TEXT[order.status]}</span>
      {reason && <span className="muted"> {reason}</span>}
    </div>
  );
}

function Rows({ orders, me, servicing, label, testId }: { orders: WireOrder[]; me: string | null; servicing: WireServicing; label: string; testId: string }) {
  if (orders.length === 0)
    return (
      <p className="small muted" data-testid={`${testId}-empty`}>
        No {label.toLowerCase()} yet.
      </p>
    );
  return (
    <div className="table-wrap">
      <table className="table table--cards" data-testid={testId} aria-label={label}>
        <thead>
          <tr>
            <th>Price now</th>
            <th>Terms</th>
            <th>By</th>
            <th>Until</th>
          </tr>
        </thead>
        <tbody>
          {orders.map((o) => (
            <tr key={o.hash} data-testid={`${testId}-row`} data-status={o.status}>
              <td data-label="Price now">
                <strong>{priceText(o, servicing)}</strong>
              </td>
              <td data-label="Terms">
                {o.kind === "matchingOffer" ? `Any note ${matchingRanges(o.message)} at ${bpsText(o.parBps)} of par` : termsOf(o)}
                <NotOpen order={o} />
              </td>
              <td data-label="By">
                <code>{shortAddress(o.signer)}</code>
                {me && o.signer.toLowerCase() === me ? " (you)" : ""}
              </td>
              <td data-label="Until">{expiryText(o.message.expiry ?? Math.floor(Date.parse(o.expiresAt) / 1000))}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Why the book may be thin: orders sign "current notes only", so while the note is behind they wait. */
function LateBookNote({ servicing }: { servicing: WireServicing }) {
  if (servicing.status !== "late" && servicing.status !== "delinquent") return null;
  return (
    <p className="alert alert--warning small" role="status" data-testid="book-late">
      This note is {servicingLabel(servicing).toLowerCase()}: listings and offers that fill only while no installment is past due are on hold until the borrower pays what is past due.
    </p>
  );
}

/** The note's signed listings and offers (offers on it and offers on any matching note), live; par priced from the note now. */
export function OrderBook({ book, me, servicing }: { book: UseQueryResult<Book>; me: string | null; servicing: WireServicing }) {
  return (
    <section className="card stack" aria-labelledby="book-title" data-testid="order-book">
      <h2 id="book-title">Order book</h2>
      <LateBookNote servicing={servicing} />
      {book.isError ? (
        <div className="alert alert--danger" role="alert" data-testid="order-book-error">
          <p>Failed to load the order book.</p>
          <button type="button" className="btn btn--secondary btn--sm" onClick={() => void book.refetch()}>
            Retry
          </button>
        </div>
      ) : !book.data ? (
        <Spinner label="Loading the order book" />
      ) : (
        <>
          <h3>Listings</h3>
          <Rows orders={book.data.listings} me={me} servicing={servicing} label="Listings" testId="book-listings" />
          <h3>Offers</h3>
          <Rows orders={[...book.data.offers, ...book.data.matchingOffers]} me={me} servicing={servicing} label="Offers" testId="book-offers" />
        </>
      )}
    </section>
  );
}
