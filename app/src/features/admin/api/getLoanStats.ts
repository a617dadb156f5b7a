import { useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { http, type Envelope } from "../../../lib/http";
import { wireLoanSchema } from "#domain/wire/loan";
import { adminKeys } from "./keys";

const bucket = z.object({ count: z.number(), amount: z.string() });
const statsSchema = z.object({
  totalRequests: z.number(),
  totalAmount: z.string(),
  byStatus: z.record(z.string(), bucket),
  recentRequests: z.array(wireLoanSchema),
});
export type LoanStats = z.infer<typeof statsSchema>;

/** GET /loans/admin/stats: counts by status and the 5 most recent requests. */
export async function getLoanStats(): Promise<LoanStats> {
  const { data } = await http.get<Envelope<unknown>>("/loans/admin/stats");
  return statsSchema.parse(data.data);
}

/** Admin stats are polled every 30 s. */
export function useLoanStats() {
  return useQuery({ queryKey: adminKeys.stats, queryFn: getLoanStats, refetchInterval: 30_000, staleTime: 0 });
}

export const countOf = (stats: LoanStats | undefined, status: string) => stats?.byStatus[status]?.count ?? 0;
