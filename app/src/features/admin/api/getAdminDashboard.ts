import { useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { http, type Envelope } from "../../../lib/http";
import { adminKeys } from "./keys";

const dashboardSchema = z
  .object({
    totalUsers: z.number(),
    totalAdmins: z.number(),
    pendingKyc: z.number(),
    kycCompletionRate: z.number(),
    walletUsers: z.number(),
    totalLoans: z.number(),
    pendingLoans: z.number(),
    activeLoans: z.number(),
    completedLoans: z.number(),
    defaultedLoans: z.number(),
    rejectedLoans: z.number(),
    approvalRate: z.number(),
    requestedVolume: z.string(),
    totalVolume: z.string(),
    notesMinted: z.number(),
    mintFailures: z.number(),
    listingFailures: z.number(),
    feesEarned: z.string(),
    marketplaceSales: z.number(),
    marketplaceVolume: z.string(),
    systemAlerts: z.array(z.object({ _id: z.string(), type: z.string(), message: z.string(), isRead: z.boolean(), createdAt: z.string() })),
  })
  .loose();
export type AdminDashboard = z.infer<typeof dashboardSchema>;

/** GET /admin/dashboard: every figure computed by the server from data. */
export async function getAdminDashboard(): Promise<AdminDashboard> {
  const { data } = await http.get<Envelope<unknown>>("/admin/dashboard");
  return dashboardSchema.parse(data.data);
}

export function useAdminDashboard() {
  return useQuery({ queryKey: adminKeys.dashboard, queryFn: getAdminDashboard, refetchInterval: 30_000, staleTime: 0 });
}
