import { Link } from "react-router";
import { explorerLink, useRuntimeConfig } from "../../../lib/config";
import { useRecentTransactions } from "../api/getRecentTransactions";
import { activityLabel } from "../../../lib/activityLabels";
import { usd } from "../../../lib/format";

export function RecentTransactions() {
  const txs = useRecentTransactions();
  const config = useRuntimeConfig().data;
  return (
    <section className="card" data-testid="recent-transactions">
      <div className="row gap" style={{ justifyContent: "space-between" }}>
        <h2>Recent Transactions</h2>
        <Link to="/transactions" className="small">
          View all
        </Link>
      </div>
      {txs.isPending ? (
        <p className="muted" role="status">
          Loading…
        </p>
      ) : txs.isError ? (
        <p className="field__error" role="alert">
          Could not load your transactions.{" "}
          <button type="button" className="btn btn--ghost btn--sm" onClick={() => void txs.refetch()}>
            Retry
          </button>
        </p>
      ) : txs.data.length === 0 ? (
        <p className="empty">No on-chain activity yet.</p>
      ) : (
        <ul className="stack" style={{ listStyle: "none", padding: 0, margin: 0 }}>
          {txs.data.map((t) => {
            const href = explorerLink(config, "tx", t.txHash);
            return (
              <li key={`${t.txHash}-${t.logIndex}-${t.kind}`} className="row gap" style={{ justifyContent: "space-between" }}>
                <span>
                  <strong>{activityLabel(t.kind)}</strong>
                  {t.tokenId ? <span className="small muted"> · note #{t.tokenId}</span> : null}
                  <br />
                  <a className="small" href={href} target={href.startsWith("/") ? undefined : "_blank"} rel="noreferrer">
                    {t.time ? new Date(t.time).toLocaleString() : `block ${t.blockNumber}`}
                  </a>
                </span>
                <strong>{t.amount ? usd(t.amount) : ""}</strong>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
