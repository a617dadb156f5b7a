import { useQuery } from "@tanstack/react-query";
import { http, type Envelope } from "../../../lib/http";
import { wireLoanSchema, type WireLoan as Loan } from "#domain/wire/loan";
import { loanKeys } from "./keys";

/** GET /loans/{id}: one of the user's loans with its timeline. */
export async function getLoan(id: string): Promise<Loan> {
  const { data } = await http.get<Envelope<unknown>>(`/loans/${encodeURIComponent(id)}`);
  return wireLoanSchema.parse(data.data);
}

export function useLoan(id: string | undefined) {
  return useQuery({ queryKey: loanKeys.one(id ?? ""), queryFn: () => getLoan(id!), enabled: Boolean(id), staleTime: 0, refetchInterval: 15_000 });
}
