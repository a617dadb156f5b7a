import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { http, type Envelope } from "../../../lib/http";
import { adminKeys } from "./keys";

const withdrawalSchema = z.object({ amount: z.string(), txHash: z.string() });

/** POST /admin/treasury/withdraw: pulls the repayments credited to the treasury; answers the amount and the transaction. */
export async function withdrawCredits() {
  const { data } = await http.post<Envelope<unknown>>("/admin/treasury/withdraw");
  return { message: data.message ?? "", ...withdrawalSchema.parse(data.data) };
}

export function useWithdrawCredits() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: withdrawCredits, onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }) });
}
