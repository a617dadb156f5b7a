import { Link } from "react-router";
import { PageHeader } from "../../../components/PageHeader";
import { Readiness } from "../../../components/Readiness";

export function MyLoansPage() {
  return (
    <div className="container page">
      <PageHeader title="My Loans" subtitle="Your loan requests, their status and repayments." actions={<Link to="/loans/request" className="btn btn--primary">Request New Loan</Link>} />
      <section className="card">
        <h2>Ready to borrow?</h2>
        <Readiness />
      </section>
    </div>
  );
}
