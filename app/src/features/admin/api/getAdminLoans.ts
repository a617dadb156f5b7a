import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { http, type Envelope } from "../../../lib/http";
import { wireLoanPageSchema, type WireLoanPage } from "#domain/wire/loan";
import { listParams, type LoanListParams } from "./listParams";
import { adminKeys } from "./keys";

/** GET /admin/loans: every loan, filtered, searched and sorted by the server. */
export async function getAdminLoans(params: LoanListParams): Promise<WireLoanPage> {
  const { data } = await http.get<Envelope<unknown>>("/admin/loans", { params: listParams(params) });
  return wireLoanPageSchema.parse(data.data);
}

export function useAdminLoans(params: LoanListParams) {
  return useQuery({ queryKey: adminKeys.loans(params), queryFn: () => getAdminLoans(params), placeholderData: keepPreviousData, refetchInterval: 30_000, staleTime: 0 });
}
