import { useQuery } from "@tanstack/react-query";
import { wireUserActivitySchema, type WireActivityEntry } from "#domain/wire/activity";
import { http, type Envelope } from "../../../lib/http";

export type Transaction = WireActivityEntry;

/** GET /activity: every disbursement, repayment, sale, transfer, vault move and withdrawal of the user, newest first. */
export async function getTransactions(limit: number) {
  const { data } = await http.get<Envelope<unknown>>("/activity", { params: { limit } });
  return wireUserActivitySchema.parse(data.data);
}

export function useTransactions(limit: number) {
  return useQuery({ queryKey: ["transactions", limit], queryFn: () => getTransactions(limit), staleTime: 0, refetchInterval: 30_000 });
}
