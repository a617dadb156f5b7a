import type { UseQueryResult } from "@tanstack/react-query";
import type { OrderBook as Book, WireOrder } from "#domain/wire/order";
import { Spinner } from "../../../components/Spinner";
import { shortAddress, usd } from "../../../lib/format";
import { bpsText, expiryText, matchingRanges } from "../../../lib/orders/orderWords";

const termsOf = (o: WireOrder) =>
  o.priceKind === "par" ? `${bpsText(o.parBps)} of par${o.cap ? `, at most ${usd(o.cap)}` : ""}` : "Fixed price";

function Rows({ orders, me, label, testId }: { orders: WireOrder[]; me: string | null; label: string; testId: string }) {
  if (orders.length === 0) return <p className="small muted" data-testid={`${testId}-empty`}>No {label.toLowerCase()} yet.</p>;
  return (
    <div className="table-wrap">
      <table className="table" data-testid={testId} aria-label={label}>
        <thead><tr><th>Price now</th><th>Terms</th><th>By</th><th>Until</th></tr></thead>
        <tbody>
          {orders.map((o) => (
            <tr key={o.hash} data-testid={`${testId}-row`}>
              <td><strong>{usd(o.priceNow)}</strong></td>
              <td>{o.kind === "matchingOffer" ? `Any note ${matchingRanges(o.message)} at ${bpsText(o.parBps)} of par` : termsOf(o)}</td>
              <td><code>{shortAddress(o.signer)}</code>{me && o.signer.toLowerCase() === me ? " (you)" : ""}</td>
              <td>{expiryText(o.message.expiry ?? Math.floor(Date.parse(o.expiresAt) / 1000))}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The note's open signed listings and offers (offers on it and offers on any matching note), live. */
export function OrderBook({ book, me }: { book: UseQueryResult<Book>; me: string | null }) {
  return (
    <section className="card stack" aria-labelledby="book-title" data-testid="order-book">
      <h2 id="book-title">Order book</h2>
      {book.isError ? (
        <div className="alert alert--danger" role="alert" data-testid="order-book-error">
          <p>Failed to load the order book.</p>
          <button type="button" className="btn btn--secondary btn--sm" onClick={() => void book.refetch()}>Retry</button>
        </div>
      ) : !book.data ? (
        <Spinner label="Loading the order book" />
      ) : (
        <>
          <h3>Listings</h3>
          <Rows orders={book.data.listings} me={me} label="Listings" testId="book-listings" />
          <h3>Offers</h3>
          <Rows orders={[...book.data.offers, ...book.data.matchingOffers]} me={me} label="Offers" testId="book-offers" />
        </>
      )}
    </section>
  );
}
