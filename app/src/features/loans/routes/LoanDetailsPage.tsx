import { Link, useParams } from "react-router";
import { PageHeader } from "../../../components/PageHeader";

export function LoanDetailsPage() {
  const { id } = useParams();
  return (
    <div className="container page">
      <PageHeader title="Loan details" subtitle={<>Loan <code>{id}</code></>} actions={<Link to="/loans/my-loans" className="btn btn--ghost">Back to My Loans</Link>} />
    </div>
  );
}
