import { Link } from "react-router";
import { useRecentLoans } from "../api/getRecentLoans";
import { statusText, usd } from "../../../lib/format";

export function RecentLoans() {
  const loans = useRecentLoans();
  return (
    <section className="card" data-testid="recent-loans">
      <div className="row gap" style={{ justifyContent: "space-between" }}>
        <h2>Recent Loans</h2>
        <Link to="/loans/my-loans" className="small">
          View all
        </Link>
      </div>
      {loans.isPending ? (
        <p className="muted" role="status">
          Loading…
        </p>
      ) : loans.isError ? (
        <p className="field__error" role="alert">
          Failed to load loans. Please try again.{" "}
          <button type="button" className="btn btn--ghost btn--sm" onClick={() => void loans.refetch()}>
            Retry
          </button>
        </p>
      ) : loans.data.length === 0 ? (
        <div className="empty">
          <p>No loans yet.</p>
          <Link to="/loans/request" className="btn btn--primary btn--sm">
            Request your first loan
          </Link>
        </div>
      ) : (
        <ul className="stack" style={{ listStyle: "none", padding: 0, margin: 0 }}>
          {loans.data.map((l) => (
            <li key={l._id} className="row gap" style={{ justifyContent: "space-between" }}>
              <Link to={`/loans/${l._id}`}>
                Loan #{l.loanNumber} · {usd(l.principal ?? l.amount)}
              </Link>
              <span className="small muted">
                {l.interestRate}% · {l.termMonths} mo · <span className="badge badge--neutral">{statusText(l.status)}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
