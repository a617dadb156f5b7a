import { useMutation, useQueryClient } from "@tanstack/react-query";
import { http, type Envelope } from "../../../lib/http";
import { wireLoanSchema, type WireLoan as AdminLoan } from "#domain/wire/loan";
import { adminKeys } from "./keys";

/** POST /admin/nfts/{loanId}/retry-mint: sends a failed origination (or a failed listing) again. */
export async function retryMint(loanId: string): Promise<{ loan: AdminLoan; message: string }> {
  const { data } = await http.post<Envelope<unknown>>(`/admin/nfts/${loanId}/retry-mint`, {});
  return { loan: wireLoanSchema.parse(data.data), message: data.message ?? "" };
}

export function useRetryMint() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: retryMint, onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }) });
}
