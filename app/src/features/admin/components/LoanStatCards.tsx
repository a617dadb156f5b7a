import { countOf, type LoanStats } from "../api/getLoanStats";
import { StatCard } from "./StatCard";
import { usd } from "../../../lib/format";

/** Counts by status from GET /loans/admin/stats. */
export function LoanStatCards({ stats }: { stats: LoanStats | undefined }) {
  const v = (n: number) => (stats ? n : "…");
  return (
    <div className="grid-4">
      <StatCard label="Total requests" value={v(stats?.totalRequests ?? 0)} hint={stats ? `${usd(stats.totalAmount)} requested` : undefined} testId="stat-total" />
      <StatCard label="Pending" value={v(countOf(stats, "pending"))} testId="stat-pending" />
      <StatCard label="Approved / active" value={v(countOf(stats, "approved") + countOf(stats, "active"))} testId="stat-approved" />
      <StatCard label="Rejected" value={v(countOf(stats, "rejected"))} testId="stat-rejected" />
    </div>
  );
}
