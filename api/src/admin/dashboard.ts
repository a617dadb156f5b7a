import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "#db/connect";
import { chainOrderFills, chainSales, loans, notifications, users } from "#db/schema";
import { formatUsdAmount } from "#domain/money";

const pct = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 100);

/** GET /admin/dashboard: every figure computed from data, none fixed in code. */
export async function adminDashboard(db: Db, chainId: number, adminId: string) {
  const [userCounts] = await db
    .select({
      totalUsers: sql<number>`count(*) filter (where ${users.role} = 'user')::int`,
      admins: sql<number>`count(*) filter (where ${users.role} = 'admin')::int`,
      pendingKyc: sql<number>`count(*) filter (where ${users.kycStatus} = 'pending')::int`,
      approvedKyc: sql<number>`count(*) filter (where ${users.kycStatus} = 'approved' and ${users.role} = 'user')::int`,
      rejectedKyc: sql<number>`count(*) filter (where ${users.kycStatus} = 'rejected')::int`,
      // Borrowers and investors only: the admins' own wallets are not users with a verified wallet.
      walletUsers: sql<number>`count(*) filter (where ${users.walletAddress} is not null and ${users.role} = 'user')::int`,
    })
    .from(users);
  const [loanCounts] = await db
    .select({
      total: sql<number>`count(*)::int`,
      pending: sql<number>`count(*) filter (where ${loans.status} = 'pending')::int`,
      approved: sql<number>`count(*) filter (where ${loans.status} in ('approved', 'active', 'completed', 'defaulted'))::int`,
      rejected: sql<number>`count(*) filter (where ${loans.status} = 'rejected')::int`,
      active: sql<number>`count(*) filter (where ${loans.status} = 'active')::int`,
      completed: sql<number>`count(*) filter (where ${loans.status} = 'completed')::int`,
      defaulted: sql<number>`count(*) filter (where ${loans.status} = 'defaulted')::int`,
      mintFailed: sql<number>`count(*) filter (where ${loans.mintStatus} = 'failed')::int`,
      listingFailed: sql<number>`count(*) filter (where ${loans.listingStatus} = 'failed')::int`,
      requestedVolume: sql<string>`coalesce(sum(${loans.amount}), 0)::text`,
      fundedVolume: sql<string>`coalesce(sum(${loans.principal}) filter (where ${loans.mintStatus} = 'minted'), 0)::text`,
      minted: sql<number>`count(*) filter (where ${loans.mintStatus} = 'minted')::int`,
    })
    .from(loans);
  // On-chain listings' sales and signed orders' fills alike.
  const [sales] = (
    (await db.execute(sql`
      select coalesce(sum(fee), 0)::text as fees, coalesce(sum(price), 0)::text as volume, count(*)::int as count from (
        select fee, price from ${chainSales} where chain_id = ${chainId}
        union all
        select fee, price from ${chainOrderFills} where chain_id = ${chainId}
      ) s`)) as unknown as { rows: { fees: string; volume: string; count: number }[] }
  ).rows;
  const alerts = await db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, adminId), eq(notifications.type, "system_alert")))
    .orderBy(desc(notifications.createdAt))
    .limit(10);
  const decided = loanCounts.approved + loanCounts.rejected;
  return {
    totalUsers: userCounts.totalUsers,
    totalAdmins: userCounts.admins,
    pendingKyc: userCounts.pendingKyc,
    kycCompletionRate: pct(userCounts.approvedKyc, userCounts.totalUsers),
    walletUsers: userCounts.walletUsers,
    totalLoans: loanCounts.total,
    pendingLoans: loanCounts.pending,
    activeLoans: loanCounts.active,
    completedLoans: loanCounts.completed,
    defaultedLoans: loanCounts.defaulted,
    rejectedLoans: loanCounts.rejected,
    approvalRate: pct(loanCounts.approved, decided),
    requestedVolume: formatUsdAmount(BigInt(loanCounts.requestedVolume)),
    totalVolume: formatUsdAmount(BigInt(loanCounts.fundedVolume)),
    notesMinted: loanCounts.minted,
    mintFailures: loanCounts.mintFailed,
    listingFailures: loanCounts.listingFailed,
    /** The marketplace fees paid to the treasury, from the Sold events of the chain mirror. */
    feesEarned: formatUsdAmount(BigInt(sales.fees)),
    revenue: formatUsdAmount(BigInt(sales.fees)),
    marketplaceSales: sales.count,
    marketplaceVolume: formatUsdAmount(BigInt(sales.volume)),
    systemAlerts: alerts.map((a) => ({ _id: a.id, type: a.type, message: a.message, isRead: a.read, createdAt: a.createdAt.toISOString() })),
  };
}
