import { Link } from "react-router";
import { PageHeader } from "../../../components/PageHeader";
import { explorerLink, useRuntimeConfig } from "../../../lib/config";
import { useSession } from "../../../lib/session";

export function TransactionsPage() {
  const user = useSession((s) => s.user);
  const config = useRuntimeConfig();
  const wallet = user?.walletAddress;
  return (
    <div className="container page">
      <PageHeader title="Transactions" subtitle="Every disbursement, repayment and note transfer is on-chain." />
      <section className="card">
        {wallet ? (
          <p>Your verified wallet's activity: <a href={explorerLink(config.data, "address", wallet)}><code>{wallet}</code></a></p>
        ) : (
          <p className="muted">Link a wallet on your <Link to="/profile">profile</Link> to follow its on-chain activity.</p>
        )}
      </section>
    </div>
  );
}
