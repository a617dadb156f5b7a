import { useMutation, useQueryClient } from "@tanstack/react-query";
import { wireLoanSchema, type WireLoan } from "#domain/wire/loan";
import { http, type Envelope } from "../../../lib/http";
import { adminKeys } from "./keys";

/** PUT /admin/loans/{id}/collateral/appraisal {appraisal: "1500.00"}: the loan with its pledged piece's new appraisal and LTV. */
export async function appraiseCollateral({ id, appraisal }: { id: string; appraisal: string }): Promise<{ loan: WireLoan; message: string }> {
  const { data } = await http.put<Envelope<unknown>>(`/admin/loans/${encodeURIComponent(id)}/collateral/appraisal`, { appraisal });
  return { loan: wireLoanSchema.parse(data.data), message: data.message ?? "" };
}

export function useAppraiseCollateral() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: appraiseCollateral,
    onSuccess: ({ loan }) => {
      queryClient.setQueryData(adminKeys.loan(loan._id), loan);
      void queryClient.invalidateQueries({ queryKey: adminKeys.all });
    },
  });
}
