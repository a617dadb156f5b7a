import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { LOAN_MESSAGES } from "#domain/schemas/loans";
import { http, type Envelope } from "../../../lib/http";
import { adminLoanSchema, type AdminLoan } from "./loanSchema";
import { adminKeys } from "./keys";

/** Spec 02 §5: a rejection needs a non-empty reason. */
export const rejectionFormSchema = z.object({
  rejectionReason: z.string().trim().min(1, LOAN_MESSAGES.rejectionReason).max(2000),
  adminNotes: z.string().trim().max(2000).optional(),
});
export type RejectionForm = z.infer<typeof rejectionFormSchema>;

/** PUT /admin/loans/{id}/reject {rejectionReason, adminNotes}. */
export async function rejectLoan({ id, ...body }: RejectionForm & { id: string }): Promise<AdminLoan> {
  const { data } = await http.put<Envelope<unknown>>(`/admin/loans/${id}/reject`, rejectionFormSchema.parse(body));
  return adminLoanSchema.parse(data.data);
}

export function useRejectLoan() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: rejectLoan, onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }) });
}
