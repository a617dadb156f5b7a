import { useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { http, type Envelope } from "../../../lib/http";
import { dashboardKeys } from "./getSummary";

const entry = z.object({
  kind: z.string(),
  tokenId: z.string().nullable(),
  loanId: z.string().nullable(),
  amount: z.string().nullable(),
  txHash: z.string(),
  blockNumber: z.number(),
  logIndex: z.number(),
  time: z.string().nullable(),
});
export type RecentTransaction = z.infer<typeof entry>;

/** GET /activity?limit=5: the user's latest on-chain activity from the mirror. */
export async function getRecentTransactions(): Promise<RecentTransaction[]> {
  const { data } = await http.get<Envelope<{ transactions: unknown }>>("/activity", { params: { limit: 5 } });
  return z.array(entry).parse(data.data.transactions);
}

export function useRecentTransactions() {
  return useQuery({ queryKey: dashboardKeys.transactions, queryFn: getRecentTransactions, staleTime: 0 });
}
