import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { http, type Envelope } from "../../../lib/http";
import { wireLoanPageSchema, type WireLoanPage } from "#domain/wire/loan";
import { loanKeys } from "./keys";

export interface MyLoansParams {
  page?: number;
  limit?: number;
  status?: string;
  sortBy?: "requestDate" | "amount";
  sortOrder?: "asc" | "desc";
  search?: string;
}

/** GET /loans/my-loans: page size 50. */
export async function getMyLoans(params: MyLoansParams): Promise<WireLoanPage> {
  const query = Object.fromEntries(Object.entries({ page: 1, limit: 50, ...params }).filter(([, v]) => v !== undefined && v !== "" && v !== "all"));
  const { data } = await http.get<Envelope<unknown>>("/loans/my-loans", { params: query });
  return wireLoanPageSchema.parse(data.data);
}

/** Fresh for 30 s, kept 5 min, refetched every 30 s. */
export function useMyLoans(params: MyLoansParams = {}) {
  return useQuery({
    queryKey: loanKeys.mine(params),
    queryFn: () => getMyLoans(params),
    staleTime: 30_000,
    gcTime: 5 * 60_000,
    refetchInterval: 30_000,
    placeholderData: keepPreviousData,
  });
}
