import { useMutation, useQueryClient } from "@tanstack/react-query";
import { http, type Envelope } from "../../../lib/http";
import { adminKeys } from "./keys";

/** POST /admin/treasury/withdraw: pulls the repayments credited to the treasury. */
export async function withdrawCredits(): Promise<string> {
  const { data } = await http.post<Envelope<unknown>>("/admin/treasury/withdraw");
  return data.message ?? "";
}

export function useWithdrawCredits() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: withdrawCredits, onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }) });
}
