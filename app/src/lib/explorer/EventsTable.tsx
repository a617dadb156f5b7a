import { useState } from "react";
import { displayUsd } from "#domain/money";
import { bpsPercentText, unixTimeText } from "../format";
import type { ArgValue, DecodedEvent } from "./chain";
import { ExplorerLink } from "./ExplorerLink";

export function ArgView({ value }: { value: ArgValue }) {
  if (typeof value === "string") return <code className="break">{value}</code>;
  if (value.kind === "address")
    return (
      <ExplorerLink kind="address" id={value.value}>
        <code className="break">{value.value}</code>
      </ExplorerLink>
    );
  if (value.kind === "amount") return <span>{displayUsd(value.value)}</span>;
  // The raw figure stays in the tooltip for a reader checking it against the log.
  if (value.kind === "time") return <span title={value.value.toString()}>{unixTimeText(value.value)}</span>;
  if (value.kind === "bps") return <span title={`${value.value} bps`}>{bpsPercentText(value.value)}</span>;
  return <q>{value.value}</q>;
}

export function ArgList({ args }: { args: { name: string; value: ArgValue }[] }) {
  if (args.length === 0) return <span className="muted">—</span>;
  return (
    <dl className="ex-args">
      {args.map((a) => (
        <div key={a.name}>
          <dt>{a.name}</dt>
          <dd>
            {a.name === "tokenId" && typeof a.value === "string" ? (
              <ExplorerLink kind="token" id={a.value}>
                #{a.value}
              </ExplorerLink>
            ) : (
              <ArgView value={a.value} />
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** A page of the log: an address or a token with a long history would otherwise render thousands of rows. */
export const EVENTS_PAGE_SIZE = 50;

/** Decoded events (names and arguments), optionally with the transaction each came from, 50 a page. */
export function EventsTable({ events, withTx = false }: { events: DecodedEvent[]; withTx?: boolean }) {
  const [wanted, setPage] = useState(1);
  if (events.length === 0)
    return (
      <p className="muted small" data-testid="no-events">
        No events.
      </p>
    );
  const pages = Math.ceil(events.length / EVENTS_PAGE_SIZE);
  // New events arriving (or fewer after a refetch) never leave the reader on a page past the end.
  const page = Math.min(wanted, pages);
  const shown = events.slice((page - 1) * EVENTS_PAGE_SIZE, page * EVENTS_PAGE_SIZE);
  return (
    <div className="stack">
      <div className="table-wrap">
        <table className="table table--cards" data-testid="events">
          <thead>
            <tr>
              {withTx && <th>Block</th>}
              <th>Event</th>
              <th>Contract</th>
              <th>Arguments</th>
              {withTx && <th>Transaction</th>}
            </tr>
          </thead>
          <tbody>
            {shown.map((e) => (
              <tr key={`${e.txHash}:${e.logIndex}`}>
                {withTx && <td data-label="Block">{e.blockNumber?.toString() ?? "—"}</td>}
                <td data-label="Event">
                  <strong>{e.name}</strong>
                </td>
                <td data-label="Contract">
                  <ExplorerLink kind="address" id={e.address}>
                    {e.contract}
                  </ExplorerLink>
                </td>
                <td data-label="Arguments" className="cell--wide">
                  <ArgList args={e.args} />
                </td>
                {withTx && <td data-label="Transaction">{e.txHash ? <ExplorerLink kind="tx" id={e.txHash} /> : "—"}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pages > 1 && (
        <nav className="ex-pages" aria-label="Event pages" data-testid="events-pages">
          <button type="button" className="btn btn--ghost btn--sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </button>
          <span className="muted small">
            Page {page} of {pages} · {events.length} events
          </span>
          <button type="button" className="btn btn--ghost btn--sm" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            Next
          </button>
        </nav>
      )}
    </div>
  );
}
