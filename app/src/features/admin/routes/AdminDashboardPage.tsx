import { Link } from "react-router";
import { QuickActionGrid } from "../../../components/QuickActionGrid";
import { countText } from "../../../lib/format";
import { useAdminDashboard } from "../api/getAdminDashboard";
import { useLoanStats } from "../api/getLoanStats";
import { AdminPage } from "../components/AdminPage";
import { StatCard } from "../components/StatCard";
import { LoanCard } from "../components/LoanCard";
import { QueryState } from "../components/QueryState";
import { useLoanReview } from "../components/useLoanReview";
import { useAdminLive } from "../components/useAdminLive";
import { dateTimeText } from "../components/money";
import { usd } from "../../../lib/format";

const ACTIONS = [
  { to: "/admin/request", title: "Loan Requests", text: "Review pending requests: approve (fund and mint) or reject." },
  { to: "/admin/kyc", title: "KYC Verification", text: "Check identity documents and decide." },
  { to: "/admin/marketplace", title: "Marketplace", text: "Monitor listed, funded and repaying notes." },
  { to: "/admin/portfolio", title: "Treasury Portfolio", text: "Reprice, unlist and withdraw the treasury's notes." },
  { to: "/admin/users", title: "Users", text: "Accounts, roles, wallets and KYC states." },
  { to: "/admin/contact", title: "Messages", text: "What visitors wrote through the contact form." },
];

/** /admin and /admin/overview: live indicator, real figures, quick actions, the 5 newest requests, metrics and alerts. */
export function AdminDashboardPage() {
  useAdminLive();
  const dashboard = useAdminDashboard();
  const stats = useLoanStats();
  const review = useLoanReview();
  const d = dashboard.data;
  const v = (value: React.ReactNode) => (d ? value : "…");

  return (
    <AdminPage title="Admin Dashboard" subtitle="Loans, notes, users and the marketplace at a glance.">
      {dashboard.isError && (
        <div className="alert alert--danger" role="alert">
          Failed to load the dashboard figures.{" "}
          <button type="button" className="btn btn--ghost btn--sm" onClick={() => void dashboard.refetch()}>
            Retry
          </button>
        </div>
      )}
      <div className="grid-4" data-testid="admin-stats">
        <StatCard label="Total users" value={v(d?.totalUsers)} hint={d ? `${d.walletUsers} with a verified wallet` : undefined} testId="stat-users" />
        <StatCard label="Pending requests" value={v(d?.pendingLoans)} hint={d ? `${countText(d.totalLoans, "loan")} in all` : undefined} testId="stat-pending-loans" />
        <StatCard label="Pending KYC" value={v(d?.pendingKyc)} testId="stat-pending-kyc" />
        <StatCard label="Funded volume" value={v(usd(d?.totalVolume))} hint={d ? `${countText(d.notesMinted, "note")} minted` : undefined} testId="stat-volume" />
      </div>

      <QuickActionGrid actions={ACTIONS} />

      <section>
        <div className="row gap" style={{ justifyContent: "space-between" }}>
          <h2 className="section-title">Recent loan applications</h2>
          <Link to="/admin/request" className="btn btn--ghost btn--sm">
            All requests
          </Link>
        </div>
        <QueryState
          loading={stats.isLoading}
          error={stats.isError}
          empty={!stats.data?.recentRequests.length}
          errorText="Failed to load loan requests. Please try again."
          emptyText="No loan applications yet"
          onRetry={() => void stats.refetch()}
        >
          <div className="admin-list" data-testid="recent-requests">
            {stats.data?.recentRequests.slice(0, 5).map((loan) => (
              <LoanCard key={loan._id} loan={loan} onView={() => review.openDetails(loan._id)} onDecide={review.decide} />
            ))}
          </div>
        </QueryState>
      </section>

      <div className="grid-2">
        <section className="card">
          <h2 className="section-title" style={{ marginTop: 0 }}>
            Platform metrics
          </h2>
          {d ? (
            <dl className="details" data-testid="platform-metrics">
              <div>
                <dt>Approval rate</dt>
                <dd>{d.approvalRate}%</dd>
              </div>
              <div>
                <dt>KYC completion</dt>
                <dd>{d.kycCompletionRate}%</dd>
              </div>
              <div>
                <dt>Active loans</dt>
                <dd>{d.activeLoans}</dd>
              </div>
              <div>
                <dt>Completed / defaulted</dt>
                <dd>
                  {d.completedLoans} / {d.defaultedLoans}
                </dd>
              </div>
              <div>
                <dt>Requested volume</dt>
                <dd>{usd(d.requestedVolume)}</dd>
              </div>
              <div>
                <dt>Marketplace sales</dt>
                <dd>
                  {d.marketplaceSales} ({usd(d.marketplaceVolume)})
                </dd>
              </div>
              <div>
                <dt>Fees earned</dt>
                <dd>{usd(d.feesEarned)}</dd>
              </div>
              <div>
                <dt>Mint / listing failures</dt>
                <dd>
                  {d.mintFailures} / {d.listingFailures}
                </dd>
              </div>
            </dl>
          ) : (
            <p className="muted">{dashboard.isError ? "Unavailable" : "Loading…"}</p>
          )}
        </section>
        <section className="card">
          <h2 className="section-title" style={{ marginTop: 0 }}>
            System alerts
          </h2>
          {!d ? (
            <p className="muted">{dashboard.isError ? "Unavailable" : "Loading…"}</p>
          ) : d.systemAlerts.length ? (
            <ul className="admin-alerts" data-testid="system-alerts">
              {d.systemAlerts.map((a) => (
                <li key={a._id} className="alert alert--warning">
                  {a.message}
                  <div className="muted small">{dateTimeText(a.createdAt)}</div>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted" data-testid="system-alerts">
              No alerts: minting, listing and the treasury are healthy.
            </p>
          )}
        </section>
      </div>
      {review.modals}
    </AdminPage>
  );
}
