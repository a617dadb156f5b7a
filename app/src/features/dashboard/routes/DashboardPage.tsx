import type { ReactNode } from "react";
import { QuickActionGrid } from "../../../components/QuickActionGrid";
import { Link, useNavigate } from "react-router";
import toast from "react-hot-toast";
import { shortAddress } from "../../../lib/format";
import { useSession } from "../../../lib/session";
import { kycStatusOf } from "../../../lib/user";
import { useQueryClient } from "@tanstack/react-query";
import { LiveBadge, useRealtimeEvent } from "../../../lib/realtime/hooks";
import { dashboardKeys, useSummary } from "../api/getSummary";
import { Notices } from "../components/Notices";
import { NOTIFICATION_UI } from "../../../lib/notifications/texts";
import { Performance } from "../components/Performance";
import { RecentLoans } from "../components/RecentLoans";
import { RecentTransactions } from "../components/RecentTransactions";
import { StatTiles } from "../components/StatTiles";

const QUICK_ACTIONS = [
  { to: "/loans/request", title: "Request Loan", text: "Tell us the amount, purpose and term." },
  { to: "/loans/my-loans", title: "My Loans", text: "Follow your requests and repayments." },
  { to: "/marketplace", title: "Marketplace", text: "Browse loan notes listed for sale." },
  { to: "/profile", title: "Profile Settings", text: "Details, wallet and password." },
  { to: "/portfolio", title: "Portfolio", text: "Notes you hold and notes of your loans." },
  { to: "/kyc", title: "KYC Verification", text: "Verify your identity to borrow and invest." },
];

const KYC_TEXT = {
  none: { title: "KYC Required", text: "Verify your identity to request loans and buy loan notes.", action: "Start verification" },
  pending: { title: "KYC Under Review", text: "Your documents are being reviewed; this takes 24-48 hours.", action: "View status" },
  rejected: { title: "KYC needs attention", text: "Your verification was not approved. Please resubmit your documents.", action: "Resubmit documents" },
} as const;

/** `chat` is the assistant the route table hands in (the chat feature's widget). */
export function DashboardPage({ chat }: { chat?: ReactNode }) {
  const { user, logout } = useSession();
  const navigate = useNavigate();
  const kyc = kycStatusOf(user);
  const queryClient = useQueryClient();
  const summary = useSummary();
  // Live events make the page refetch its numbers rather than add to them.
  const refresh = () => void queryClient.invalidateQueries({ queryKey: dashboardKeys.all });
  useRealtimeEvent("loan:status", refresh);
  useRealtimeEvent("loan:funded", refresh);
  useRealtimeEvent("marketplace:update", refresh);
  useRealtimeEvent("notification:new", refresh);

  const disconnect = () => {
    logout();
    toast.success("Wallet disconnected successfully");
    void navigate("/login", { replace: true });
  };

  return (
    <div className="container page">
      <div className="welcome card">
        <div>
          <p className="eyebrow">Dashboard</p>
          <h1>Welcome back, {user?.firstName || "User"}!</h1>
          <p className="muted">Here is where your loans, notes and verification stand.</p>
          <LiveBadge />
        </div>
        {user?.isWalletUser && user.walletAddress && (
          <div className="wallet-chip" data-testid="wallet-chip">
            <span className="dot" aria-hidden="true" />
            <code>{shortAddress(user.walletAddress)}</code>
            <button type="button" className="btn btn--ghost btn--sm" onClick={disconnect}>
              Disconnect
            </button>
          </div>
        )}
      </div>

      {kyc !== "approved" && (
        <div className={`alert ${kyc === "rejected" ? "alert--danger" : "alert--warning"} kyc-banner`} role="status" data-testid="kyc-banner">
          <div>
            <p>
              <strong>{KYC_TEXT[kyc].title}</strong>
            </p>
            <p className="muted">{KYC_TEXT[kyc].text}</p>
          </div>
          <Link to="/kyc" className="btn btn--primary btn--sm">
            {KYC_TEXT[kyc].action}
          </Link>
        </div>
      )}

      <section className="mt" aria-labelledby="notices-title">
        <h2 id="notices-title" className="section-title">
          Latest notices
        </h2>
        <Notices />
        <p className="small mt">
          <Link to="/notifications" data-testid="notices-see-all">
            {NOTIFICATION_UI.seeAll}
          </Link>
        </p>
      </section>

      <StatTiles summary={summary} />

      <h2 className="section-title">Quick actions</h2>
      <QuickActionGrid actions={QUICK_ACTIONS} />

      <div className="grid-2 mt">
        <RecentLoans />
        <RecentTransactions />
      </div>
      <div className="mt">
        <Performance summary={summary} />
      </div>
      {chat}
    </div>
  );
}
