import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { ADMIN_MESSAGES } from "#domain/schemas/admin";
import { http, type Envelope } from "../../../lib/http";
import { adminKeys } from "./keys";

export const priceSchema = z.string().trim().regex(/^\d+(\.\d{1,6})?$/, ADMIN_MESSAGES.price).refine((v) => Number(v) > 0, ADMIN_MESSAGES.price);

/** PUT /admin/treasury/notes/{tokenId}/price {listingPrice}: lists a held note, or changes its price. */
export async function repriceNote({ tokenId, listingPrice }: { tokenId: string; listingPrice: string }): Promise<string> {
  const { data } = await http.put<Envelope<unknown>>(`/admin/treasury/notes/${tokenId}/price`, { listingPrice: priceSchema.parse(listingPrice) });
  return data.message ?? "";
}

export function useRepriceNote() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: repriceNote, onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }) });
}
