import { useQuery } from "@tanstack/react-query";
import { wireLoanPageSchema, type WireLoan } from "#domain/wire/loan";
import { http, type Envelope } from "../../../lib/http";
import { dashboardKeys } from "./getSummary";

/** GET /loans/my-loans?limit=5: the newest requests. */
export async function getRecentLoans(): Promise<WireLoan[]> {
  const { data } = await http.get<Envelope<unknown>>("/loans/my-loans", { params: { limit: 5, sortBy: "requestDate", sortOrder: "desc" } });
  return wireLoanPageSchema.parse(data.data).loans;
}

export function useRecentLoans() {
  return useQuery({ queryKey: dashboardKeys.loans, queryFn: getRecentLoans, staleTime: 0, refetchInterval: 30_000 });
}
