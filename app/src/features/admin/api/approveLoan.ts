import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { LOAN_MESSAGES } from "#domain/schemas/loans";
import { http, type Envelope } from "../../../lib/http";
import { adminLoanSchema, type AdminLoan } from "./loanSchema";
import { adminKeys } from "./keys";

/** The approve form: funding amount (a decimal USD string, at most the request), the wallet, notes. */
export const approvalFormSchema = z.object({
  fundingAmount: z
    .string()
    .trim()
    .regex(/^\d+(\.\d{1,6})?$/, "Funding amount must be a number")
    .refine((v) => Number(v) > 0, LOAN_MESSAGES.fundingPositive),
  walletAddress: z.string().trim().regex(/^0x[0-9a-fA-F]{40}$/, LOAN_MESSAGES.walletFormat),
  adminNotes: z.string().trim().max(2000).optional(),
});
export type ApprovalForm = z.infer<typeof approvalFormSchema>;

export interface ApprovalResult {
  loan: AdminLoan;
  message: string;
}

/** PUT /admin/loans/{id}/approve {walletAddress, adminNotes, fundingAmount}: answers after the mint and the listing. */
export async function approveLoan({ id, ...body }: ApprovalForm & { id: string }): Promise<ApprovalResult> {
  const { data } = await http.put<Envelope<unknown>>(`/admin/loans/${id}/approve`, approvalFormSchema.parse(body));
  return { loan: adminLoanSchema.parse(data.data), message: data.message ?? "" };
}

export function useApproveLoan() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: approveLoan, onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }) });
}
