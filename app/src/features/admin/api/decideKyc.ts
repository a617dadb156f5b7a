import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { http, type Envelope } from "../../../lib/http";
import { adminKeys } from "./keys";

export const kycDecisionFormSchema = z.object({
  action: z.enum(["approve", "reject"]),
  notes: z.string().trim().max(2000).optional(),
  rejectionReason: z.string().trim().max(2000).optional(),
});
export type KycDecisionForm = z.infer<typeof kycDecisionFormSchema>;

/** PUT /admin/users/{id}/kyc {action, notes, rejectionReason}: a rejection's reason is what the user is told. */
export async function decideKyc({ userId, ...body }: KycDecisionForm & { userId: string }): Promise<string> {
  const { data } = await http.put<Envelope<unknown>>(`/admin/users/${userId}/kyc`, kycDecisionFormSchema.parse(body));
  return data.message ?? "";
}

export function useDecideKyc() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: decideKyc, onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }) });
}
