import { Link } from "react-router";
import { PageHeader } from "../../../components/PageHeader";
import { Readiness } from "../../../components/Readiness";

export function PortfolioPage() {
  return (
    <div className="container page">
      <PageHeader title="My Portfolio" subtitle="Notes you hold, in your wallet or the vault, and the notes of your own loans." actions={<Link to="/loans/request" className="btn btn--primary">Apply for Loan</Link>} />
      <section className="card">
        <h2>Your wallet</h2>
        <Readiness />
      </section>
    </div>
  );
}
