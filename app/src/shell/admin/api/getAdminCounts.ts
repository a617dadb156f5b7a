import { useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { http, type Envelope } from "../../../lib/http";
import { useRealtimeEvent } from "../../../lib/realtime";

const countsSchema = z.object({ pendingLoans: z.number(), pendingKyc: z.number() }).loose();
export type AdminCounts = z.infer<typeof countsSchema>;

export const adminCountsKey = ["admin", "sidebar-counts"] as const;

/** The sidebar's badges, read from GET /admin/dashboard: pending loan requests and pending KYC. */
export async function getAdminCounts(): Promise<AdminCounts> {
  const { data } = await http.get<Envelope<unknown>>("/admin/dashboard");
  return countsSchema.parse(data.data);
}

export function useAdminCounts() {
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: adminCountsKey });
  // Anything an admin is told about may change a count; the numbers are refetched, never guessed.
  useRealtimeEvent("notification:new", refresh);
  useRealtimeEvent("loan:status", refresh);
  return useQuery({ queryKey: adminCountsKey, queryFn: getAdminCounts, refetchInterval: 30_000, staleTime: 0 });
}
