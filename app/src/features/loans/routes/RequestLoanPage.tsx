import { PageHeader } from "../../../components/PageHeader";
import { Readiness } from "../../../components/Readiness";

export function RequestLoanPage() {
  return (
    <div className="container page narrow-lg">
      <PageHeader title="Request a Loan" subtitle="Amounts from $1,000 to $1,000,000, terms of 1 to 360 months, monthly repayments." />
      <section className="card">
        <h2>What you need</h2>
        <Readiness />
        <p className="small muted">Approval sends the principal to your verified wallet and mints your loan's NFT note in the same transaction.</p>
      </section>
    </div>
  );
}
