import { useMutation, useQueryClient } from "@tanstack/react-query";
import { formatUsdAmount } from "#domain/money";
import { http, type Envelope } from "../../../lib/http";
import { adminKeys } from "./keys";

/** PUT /admin/treasury/notes/{tokenId}/price {listingPrice}: lists a held note, or changes its price (domain's repriceSchema). */
export async function repriceNote({ tokenId, listingPrice }: { tokenId: string; listingPrice: bigint }): Promise<string> {
  const { data } = await http.put<Envelope<unknown>>(`/admin/treasury/notes/${tokenId}/price`, { listingPrice: formatUsdAmount(listingPrice) });
  return data.message ?? "";
}

export function useRepriceNote() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: repriceNote, onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }) });
}
