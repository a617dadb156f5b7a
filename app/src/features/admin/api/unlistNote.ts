import { useMutation, useQueryClient } from "@tanstack/react-query";
import { http, type Envelope } from "../../../lib/http";
import { adminKeys } from "./keys";

/** PUT /admin/treasury/notes/{tokenId}/unlist: cancels the treasury's listing (signed by the server). */
export async function unlistNote(tokenId: string): Promise<string> {
  const { data } = await http.put<Envelope<unknown>>(`/admin/treasury/notes/${tokenId}/unlist`);
  return data.message ?? "";
}

export function useUnlistNote() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: unlistNote, onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }) });
}
