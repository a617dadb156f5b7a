import { useParams } from "react-router";
import { formatEther, isHash, type Hash } from "viem";
import { ethText } from "../../../lib/format";
import { PageHeader } from "../../../components/PageHeader";
import { Spinner } from "../../../components/Spinner";
import { useTransaction } from "../api/hooks";
import { ArgList, EventsTable } from "../../../lib/explorer/EventsTable";
import { ExplorerLink } from "../../../lib/explorer/ExplorerLink";
import "../../../lib/explorer/explorer.css";

/** /explorer/tx/{hash}: public, read from the chain through /api/rpc and decoded with the domain's ABIs. */
export function TransactionPage() {
  const { hash = "" } = useParams();
  if (!isHash(hash))
    return (
      <div className="container page">
        <PageHeader title="Transaction" subtitle="This is not a valid transaction hash." />
      </div>
    );
  return <TransactionDetails hash={hash} />;
}

function TransactionDetails({ hash }: { hash: Hash }) {
  const info = useTransaction(hash);
  const d = info.data;
  return (
    <div className="container page stack">
      <PageHeader title="Transaction" subtitle={<code className="break">{hash}</code>} />
      <section className="card">
        {info.isPending ? (
          <Spinner />
        ) : info.isError || !d ? (
          <p className="field__error" role="alert">
            Transaction not found on this chain.
          </p>
        ) : (
          <dl className="details" data-testid="tx-details">
            <div>
              <dt>Status</dt>
              <dd data-testid="tx-status">
                {d.receipt ? (
                  d.receipt.status === "success" ? (
                    <span className="badge badge--success">Success</span>
                  ) : (
                    <span className="badge badge--danger">Reverted</span>
                  )
                ) : (
                  <span className="badge badge--warning">Pending</span>
                )}
              </dd>
            </div>
            <div>
              <dt>Block</dt>
              <dd>{d.tx.blockNumber?.toString() ?? "—"}</dd>
            </div>
            <div>
              <dt>Time</dt>
              <dd>{d.time ? d.time.toLocaleString() : "—"}</dd>
            </div>
            <div>
              <dt>From</dt>
              <dd>
                <ExplorerLink kind="address" id={d.tx.from}>
                  <code className="break">{d.tx.from}</code>
                </ExplorerLink>
              </dd>
            </div>
            <div>
              <dt>To</dt>
              <dd>
                {d.tx.to ? (
                  <ExplorerLink kind="address" id={d.tx.to}>
                    <code className="break">{d.tx.to}</code>
                  </ExplorerLink>
                ) : (
                  "Contract creation"
                )}
              </dd>
            </div>
            <div>
              <dt>Value</dt>
              <dd title={`${formatEther(d.tx.value)} ETH`}>{ethText(d.tx.value)}</dd>
            </div>
            <div>
              <dt>Gas used</dt>
              <dd>{d.receipt?.gasUsed.toString() ?? "—"}</dd>
            </div>
            {d.call && (
              <div>
                <dt>Call</dt>
                <dd data-testid="tx-call">
                  <strong>
                    {d.call.contract}.{d.call.functionName}
                  </strong>
                  <ArgList args={d.call.args} />
                  {d.call.note && (
                    <p className="small">
                      Note: <q>{d.call.note}</q>
                    </p>
                  )}
                </dd>
              </div>
            )}
          </dl>
        )}
      </section>
      {d && (
        <section className="card stack" aria-labelledby="events-title">
          <h2 id="events-title">Events</h2>
          <EventsTable events={d.events} />
        </section>
      )}
    </div>
  );
}
