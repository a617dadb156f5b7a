import { useMutation, useQueryClient } from "@tanstack/react-query";
import { formatUsdAmount } from "#domain/money";
import type { ApprovalForm } from "#domain/schemas/loans";
import { wireLoanSchema, type WireLoan } from "#domain/wire/loan";
import { http, type Envelope } from "../../../lib/http";
import { adminKeys } from "./keys";

export interface ApprovalResult {
  loan: WireLoan;
  message: string;
}

/** PUT /admin/loans/{id}/approve {walletAddress, adminNotes, fundingAmount}: answers after the mint and the listing. */
export async function approveLoan({ id, fundingAmount, ...rest }: ApprovalForm & { id: string }): Promise<ApprovalResult> {
  const { data } = await http.put<Envelope<unknown>>(`/admin/loans/${id}/approve`, { ...rest, fundingAmount: formatUsdAmount(fundingAmount) });
  return { loan: wireLoanSchema.parse(data.data), message: data.message ?? "" };
}

export function useApproveLoan() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: approveLoan, onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }) });
}
