import { displayUsd } from "#domain/money";
import { bpsPercentText, unixTimeText } from "../format";
import type { ArgValue, DecodedEvent } from "./chain";
import { ExplorerLink } from "./ExplorerLink";

export function ArgView({ value }: { value: ArgValue }) {
  if (typeof value === "string") return <code className="break">{value}</code>;
  if (value.kind === "address") return <ExplorerLink kind="address" id={value.value}><code className="break">{value.value}</code></ExplorerLink>;
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
        <div key={a.name}><dt>{a.name}</dt><dd>{a.name === "tokenId" && typeof a.value === "string" ? <ExplorerLink kind="token" id={a.value}>#{a.value}</ExplorerLink> : <ArgView value={a.value} />}</dd></div>
      ))}
    </dl>
  );
}

/** Decoded events (names and arguments), optionally with the transaction each came from. */
export function EventsTable({ events, withTx = false }: { events: DecodedEvent[]; withTx?: boolean }) {
  if (events.length === 0) return <p className="muted small" data-testid="no-events">No events.</p>;
  return (
    <div className="table-wrap">
      <table className="table" data-testid="events">
        <thead><tr>{withTx && <th>Block</th>}<th>Event</th><th>Contract</th><th>Arguments</th>{withTx && <th>Transaction</th>}</tr></thead>
        <tbody>
          {events.map((e) => (
            <tr key={`${e.txHash}:${e.logIndex}`}>
              {withTx && <td>{e.blockNumber?.toString() ?? "—"}</td>}
              <td><strong>{e.name}</strong></td>
              <td><ExplorerLink kind="address" id={e.address}>{e.contract}</ExplorerLink></td>
              <td><ArgList args={e.args} /></td>
              {withTx && <td>{e.txHash ? <ExplorerLink kind="tx" id={e.txHash} /> : "—"}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
