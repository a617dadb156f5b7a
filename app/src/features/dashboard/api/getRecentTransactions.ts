import { useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { wireActivityEntrySchema, type WireActivityEntry } from "#domain/wire/activity";
import { http, type Envelope } from "../../../lib/http";
import { dashboardKeys } from "./getSummary";

export type RecentTransaction = WireActivityEntry;

/** GET /activity?limit=5: the user's latest on-chain activity from the mirror. */
export async function getRecentTransactions(): Promise<RecentTransaction[]> {
  const { data } = await http.get<Envelope<{ transactions: unknown }>>("/activity", { params: { limit: 5 } });
  return z.array(wireActivityEntrySchema).parse(data.data.transactions);
}

export function useRecentTransactions() {
  return useQuery({ queryKey: dashboardKeys.transactions, queryFn: getRecentTransactions, staleTime: 0 });
}
