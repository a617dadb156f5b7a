import { useQuery } from "@tanstack/react-query";
import { http, type Envelope } from "../../../lib/http";
import { wireLoanSchema, type WireLoan as AdminLoan } from "#domain/wire/loan";
import { adminKeys } from "./keys";

/** GET /loans/admin/requests/{id}: one loan with its timeline. */
export async function getLoanDetails(id: string): Promise<AdminLoan> {
  const { data } = await http.get<Envelope<unknown>>(`/loans/admin/requests/${id}`);
  return wireLoanSchema.parse(data.data);
}

/** `pollMs` follows a mint and listing while they happen. */
export function useLoanDetails(id: string | null, pollMs?: number | false) {
  return useQuery({ queryKey: adminKeys.loan(id ?? ""), queryFn: () => getLoanDetails(id!), enabled: Boolean(id), staleTime: 0, refetchInterval: pollMs ?? false });
}
