import { useMutation, useQueryClient } from "@tanstack/react-query";
import { http, type Envelope } from "../../../lib/http";
import { wireLoanSchema, type WireLoan as AdminLoan } from "#domain/wire/loan";
import { adminKeys } from "./keys";

/** POST /loans: the server makes a real pending request with random values for the demo borrower. */
export async function createDemoLoan(): Promise<AdminLoan> {
  const { data } = await http.post<Envelope<unknown>>("/loans", {});
  return wireLoanSchema.parse(data.data);
}

export function useCreateDemoLoan() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createDemoLoan, onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }) });
}
