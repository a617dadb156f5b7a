import { useMutation, useQueryClient } from "@tanstack/react-query";
import { treasuryAcceptanceSchema } from "#domain/wire/treasuryOffer";
import { http, type Envelope } from "../../../lib/http";
import { adminKeys } from "./keys";

/**
 * POST /admin/treasury/offers/{hash}/accept: the server sells the treasury's note to the offer's buyer, signing with
 * the treasury key; `minPrice` is the price the admin reviewed, the least the sale may fetch.
 */
export async function acceptTreasuryOffer(input: { hash: string; tokenId: string; minPrice: string }) {
  const { data } = await http.post<Envelope<unknown>>(`/admin/treasury/offers/${input.hash}/accept`, { tokenId: input.tokenId, minPrice: input.minPrice });
  return { message: data.message ?? "", sale: treasuryAcceptanceSchema.parse(data.data) };
}

export function useAcceptTreasuryOffer() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: acceptTreasuryOffer, onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }) });
}
