import { useMutation, useQueryClient } from "@tanstack/react-query";
import { http } from "../http";
import { notificationKeys } from "./keys";
import { markLocally } from "./markLocally";

/** PUT /notifications/read-all. */
export async function markAllNotificationsRead(): Promise<void> {
  await http.put("/notifications/read-all");
}

export function useMarkAllNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markAllNotificationsRead,
    onMutate: async () => {
      await queryClient.cancelQueries({ queryKey: notificationKeys.all });
      markLocally(queryClient);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}
