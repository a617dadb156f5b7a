import { useState } from "react";
import { Link } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { displayUsd, parseUsd } from "#domain/money";
import { PageHeader } from "../../../components/PageHeader";
import { Spinner } from "../../../components/Spinner";
import { explorerLink, useRuntimeConfig } from "../../../lib/config";
import { ACTIVITY_LABELS, activityLabel } from "../../../lib/activityLabels";
import { shortAddress } from "../../../lib/format";
import { useRealtimeEvent } from "../../../lib/realtime/hooks";
import { useSession } from "../../../lib/session";
import { useTransactions } from "../api/getTransactions";

const PAGE = 50;

/** The user's on-chain activity from the chain mirror, each row linked to its transaction in the explorer. */
export function TransactionsPage() {
  const user = useSession((s) => s.user);
  const config = useRuntimeConfig().data;
  const queryClient = useQueryClient();
  const [limit, setLimit] = useState(PAGE);
  const [kind, setKind] = useState("all");
  const txs = useTransactions(limit);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ["transactions"] });
  useRealtimeEvent("loan:funded", refresh);
  useRealtimeEvent("marketplace:update", refresh);
  useRealtimeEvent("notification:new", refresh);
  const link = (k: "tx" | "address", id: string) => {
    const href = explorerLink(config, k, id);
    return { href, target: href.startsWith("/") ? undefined : "_blank", rel: "noreferrer" };
  };
  const wallet = user?.walletAddress;
  const rows = (txs.data?.transactions ?? []).filter((t) => kind === "all" || t.kind === kind);

  return (
    <div className="container page">
      <PageHeader title="Transactions" subtitle="Every disbursement, repayment and note transfer is on-chain." />
      <section className="card">
        {wallet ? (
          <p>
            Verified wallet:{" "}
            <a {...link("address", wallet)}>
              <code>{wallet}</code>
            </a>
          </p>
        ) : (
          <p className="muted">
            Link a wallet on your <Link to="/profile">profile</Link> to see the notes you hold and the repayments you receive. Disbursements and repayments of your loans are listed below either way.
          </p>
        )}
        <div className="field" style={{ maxWidth: 260 }}>
          <label htmlFor="tx-kind">Type</label>
          <select id="tx-kind" value={kind} onChange={(e) => setKind(e.target.value)}>
            <option value="all">All types</option>
            {Object.entries(ACTIVITY_LABELS).map(([k, label]) => (
              <option key={k} value={k}>
                {label}
              </option>
            ))}
          </select>
        </div>
        {txs.isPending ? (
          <p role="status">
            <Spinner /> Loading your transactions…
          </p>
        ) : txs.isError ? (
          <div className="alert alert--danger" role="alert">
            Could not load your transactions.{" "}
            <button type="button" className="btn btn--ghost btn--sm" onClick={() => void txs.refetch()}>
              Retry
            </button>
          </div>
        ) : rows.length === 0 ? (
          <div className="empty" data-testid="transactions-empty">
            <h3>No transactions yet</h3>
            <p>Disbursements, repayments and note trades appear here once they are on-chain.</p>
          </div>
        ) : (
          <div className="table-wrap">
            <table className="table table--cards" data-testid="transactions">
              <thead>
                <tr>
                  <th>Date</th>
                  <th>Type</th>
                  <th>Note</th>
                  <th>Amount</th>
                  <th>From → To</th>
                  <th>Transaction</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((t) => (
                  <tr key={`${t.txHash}-${t.logIndex}-${t.kind}`} data-kind={t.kind}>
                    <td data-label="Date">{t.time ? new Date(t.time).toLocaleString() : `Block ${t.blockNumber}`}</td>
                    <td data-label="Type">{activityLabel(t.kind)}</td>
                    <td data-label="Note">{t.tokenId ? t.loanId ? <Link to={`/loans/${t.loanId}`}>#{t.tokenId}</Link> : <Link to={`/marketplace/nft/${t.tokenId}`}>#{t.tokenId}</Link> : "—"}</td>
                    <td data-label="Amount">{t.amount ? displayUsd(parseUsd(t.amount)) : "—"}</td>
                    <td data-label="From → To" className="small">
                      {t.from ? (
                        <a {...link("address", t.from)}>
                          <code>{shortAddress(t.from)}</code>
                        </a>
                      ) : (
                        "—"
                      )}{" "}
                      →{" "}
                      {t.to ? (
                        <a {...link("address", t.to)}>
                          <code>{shortAddress(t.to)}</code>
                        </a>
                      ) : (
                        "—"
                      )}
                    </td>
                    <td data-label="Transaction">
                      <a {...link("tx", t.txHash)}>
                        <code>{t.txHash.slice(0, 10)}…</code>
                      </a>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {txs.data && txs.data.total > limit && (
          <button type="button" className="btn btn--ghost mt" onClick={() => setLimit((l) => Math.min(l + PAGE, 200))} disabled={limit >= 200}>
            Show more
          </button>
        )}
      </section>
    </div>
  );
}
