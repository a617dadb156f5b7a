import { PageHeader } from "../../../components/PageHeader";
import { Readiness } from "../../../components/Readiness";

export function MarketplacePage() {
  return (
    <div className="container page">
      <PageHeader title="NFT Loan Marketplace" subtitle="Loan notes listed for sale. A note's buyer receives the borrower's repayments from then on." />
      <section className="card">
        <h2>To buy a note</h2>
        <Readiness />
        <p className="small muted">Buying is one transaction from your verified wallet: a permit signature, then the purchase.</p>
      </section>
    </div>
  );
}
