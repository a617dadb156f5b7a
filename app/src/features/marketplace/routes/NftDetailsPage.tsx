import { Link, useParams } from "react-router";
import { PageHeader } from "../../../components/PageHeader";

export function NftDetailsPage() {
  const { id } = useParams();
  return (
    <div className="container page">
      <PageHeader title={`Loan note #${id}`} subtitle="The note's token id is its loan number." actions={<Link to="/marketplace" className="btn btn--ghost">Back to Marketplace</Link>} />
    </div>
  );
}
