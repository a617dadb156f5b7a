import { useMutation, useQueryClient } from "@tanstack/react-query";
import { http, type Envelope } from "../../../lib/http";
import { wireLoanSchema } from "#domain/wire/loan";
import { loanKeys } from "./keys";

/** The loan request payload: amounts as decimal strings, the rate in percent. */
export interface LoanRequestPayload {
  amount: string;
  purpose: string;
  interestRate: number | string;
  termMonths: number | string;
  /** `nft` names the pledged ERC-721 when the type is "nft". */
  collateral?: { type: string; value: string; description: string; nft?: { collection: string; tokenId: string } };
}

/** POST /loans/request; on success the my-loans cache is refreshed. */
export async function requestLoan(payload: LoanRequestPayload) {
  const { data } = await http.post<Envelope<unknown>>("/loans/request", payload);
  return { loan: wireLoanSchema.parse(data.data), message: data.message };
}

export function useRequestLoan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestLoan,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: loanKeys.all }),
  });
}
