import { useMutation, useQueryClient } from "@tanstack/react-query";
import { http } from "../http";
import { notificationKeys } from "./keys";
import { markLocally } from "./markLocally";

/** PUT /notifications/{id}/read. */
export async function markNotificationRead(id: string): Promise<void> {
  await http.put(`/notifications/${id}/read`);
}

export function useMarkNotificationRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markNotificationRead,
    onMutate: async (id) => {
      await queryClient.cancelQueries({ queryKey: notificationKeys.all });
      markLocally(queryClient, id);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}
