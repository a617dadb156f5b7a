import { Link } from "react-router";
import { useSession } from "../../../lib/session";
import { AdminPage } from "../components/AdminPage";

const ACTIONS = [
  { to: "/admin/request", title: "Loan Requests", text: "Review pending requests: approve (fund and mint) or reject." },
  { to: "/admin/kyc", title: "KYC Verification", text: "Check identity documents and decide." },
  { to: "/admin/marketplace", title: "Marketplace", text: "Monitor listed, funded and repaying notes." },
  { to: "/admin/portfolio", title: "Treasury Portfolio", text: "Reprice, unlist and withdraw the treasury's notes." },
  { to: "/admin/users", title: "Users", text: "Accounts, roles, wallets and KYC states." },
  { to: "/admin/loans", title: "Manage Loans", text: "All loans with their status and notes." },
];

export function AdminDashboardPage() {
  const user = useSession((s) => s.user);
  return (
    <AdminPage title="Admin Dashboard" subtitle={`Signed in as ${user?.email ?? user?.firstName ?? "admin"} · Administrator`}>
      <div className="grid-3">
        {ACTIONS.map((a) => (
          <Link key={a.to} to={a.to} className="card quick-action">
            <strong>{a.title}</strong>
            <span className="muted small">{a.text}</span>
            <span className="quick-action__arrow" aria-hidden="true">→</span>
          </Link>
        ))}
      </div>
    </AdminPage>
  );
}
