import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { http, type Envelope } from "../../../lib/http";
import { wireLoanPageSchema, type WireLoanPage } from "#domain/wire/loan";
import { listParams, type LoanListParams } from "./listParams";
import { adminKeys } from "./keys";

/** GET /loans/admin/requests: page, limit, status, search; reads data.loans and data.pagination. */
export async function getLoanRequests(params: LoanListParams): Promise<WireLoanPage> {
  const { data } = await http.get<Envelope<unknown>>("/loans/admin/requests", { params: listParams(params) });
  return wireLoanPageSchema.parse(data.data);
}

/** The request list is polled every 10 s. */
export function useLoanRequests(params: LoanListParams) {
  return useQuery({ queryKey: adminKeys.requests(params), queryFn: () => getLoanRequests(params), placeholderData: keepPreviousData, refetchInterval: 10_000, staleTime: 0 });
}
