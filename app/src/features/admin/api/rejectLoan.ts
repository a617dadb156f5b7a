import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { LoanRejectionInput } from "#domain/schemas/loans";
import { wireLoanSchema, type WireLoan } from "#domain/wire/loan";
import { http, type Envelope } from "../../../lib/http";
import { adminKeys } from "./keys";

/** PUT /admin/loans/{id}/reject {rejectionReason, adminNotes}, as domain's loanRejectionSchema read them. */
export async function rejectLoan({ id, ...body }: LoanRejectionInput & { id: string }): Promise<WireLoan> {
  const { data } = await http.put<Envelope<unknown>>(`/admin/loans/${id}/reject`, body);
  return wireLoanSchema.parse(data.data);
}

export function useRejectLoan() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: rejectLoan, onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }) });
}
