import { useMutation, useQueryClient } from "@tanstack/react-query";
import { http } from "../../../lib/http";
import type { WireNotificationList } from "#domain/wire/notification";
import { notificationsKey } from "./getNotifications";

/** PUT /notifications/read-all. */
export async function markAllNotificationsRead(): Promise<void> {
  await http.put("/notifications/read-all");
}

export function useMarkAllNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markAllNotificationsRead,
    onMutate: () => {
      queryClient.setQueryData<WireNotificationList>(notificationsKey, (list) =>
        list ? { notifications: list.notifications.map((n) => ({ ...n, isRead: true })), unreadCount: 0 } : list,
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationsKey }),
  });
}
