import { useMutation, useQueryClient } from "@tanstack/react-query";
import { http } from "../../../lib/http";
import { adminKeys } from "./keys";

/** PUT /admin/contact/{id}/read. */
export async function markContactRead(id: string): Promise<void> {
  await http.put(`/admin/contact/${id}/read`);
}

export function useMarkContactRead() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: markContactRead, onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.contact }) });
}
