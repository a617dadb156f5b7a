import { Link } from "react-router";
import { PageHeader } from "../../../components/PageHeader";
import { Readiness } from "../../../components/Readiness";

export function LoansPage() {
  return (
    <div className="container page">
      <PageHeader title="Loan Management" subtitle="Request a loan and follow your requests." actions={<><Link to="/loans/request" className="btn btn--primary">Request Loan</Link><Link to="/loans/my-loans" className="btn btn--ghost">My Loans</Link></>} />
      <section className="card">
        <h2>Before you borrow</h2>
        <Readiness />
        <p className="small muted">Loans from $1,000 to $1,000,000, 1 to 360 months, repaid monthly with no prepayment penalty.</p>
      </section>
    </div>
  );
}
