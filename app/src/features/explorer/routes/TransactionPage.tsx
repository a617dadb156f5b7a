import { Link, useParams } from "react-router";
import { formatEther, isHash } from "viem";
import { PageHeader } from "../../../components/PageHeader";
import { Spinner } from "../../../components/Spinner";
import { useTransactionInfo } from "../api/chainClient";

export function TransactionPage() {
  const { hash = "" } = useParams();
  if (!isHash(hash)) return <div className="container page"><PageHeader title="Transaction" subtitle="This is not a valid transaction hash." /></div>;
  return <TransactionDetails hash={hash} />;
}

function TransactionDetails({ hash }: { hash: `0x${string}` }) {
  const info = useTransactionInfo(hash);
  return (
    <div className="container page">
      <PageHeader title="Transaction" subtitle={<code className="break">{hash}</code>} />
      <section className="card">
        {info.isPending ? <Spinner /> : info.isError ? <p className="field__error">Transaction not found on this chain.</p> : (
          <dl className="details">
            <div><dt>Status</dt><dd>{info.data.receipt ? (info.data.receipt.status === "success" ? "Success" : "Reverted") : "Pending"}</dd></div>
            <div><dt>Block</dt><dd>{info.data.tx.blockNumber?.toString() ?? "—"}</dd></div>
            <div><dt>From</dt><dd><Link to={`/explorer/address/${info.data.tx.from}`}><code className="break">{info.data.tx.from}</code></Link></dd></div>
            <div><dt>To</dt><dd>{info.data.tx.to ? <Link to={`/explorer/address/${info.data.tx.to}`}><code className="break">{info.data.tx.to}</code></Link> : "Contract creation"}</dd></div>
            <div><dt>Value</dt><dd>{formatEther(info.data.tx.value)} ETH</dd></div>
            <div><dt>Gas used</dt><dd>{info.data.receipt?.gasUsed.toString() ?? "—"}</dd></div>
            <div><dt>Events</dt><dd>{info.data.receipt?.logs.length ?? 0}</dd></div>
          </dl>
        )}
      </section>
    </div>
  );
}
