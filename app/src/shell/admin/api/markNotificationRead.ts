import { useMutation, useQueryClient } from "@tanstack/react-query";
import { http } from "../../../lib/http";
import type { WireNotificationList } from "#domain/wire/notification";
import { notificationsKey } from "./getNotifications";

/** PUT /notifications/{id}/read. */
export async function markNotificationRead(id: string): Promise<void> {
  await http.put(`/notifications/${id}/read`);
}

export function useMarkNotificationRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markNotificationRead,
    onMutate: (id) => {
      queryClient.setQueryData<WireNotificationList>(notificationsKey, (list) =>
        list
          ? {
              notifications: list.notifications.map((n) => (n._id === id ? { ...n, isRead: true } : n)),
              unreadCount: Math.max(0, list.unreadCount - (list.notifications.some((n) => n._id === id && !n.isRead) ? 1 : 0)),
            }
          : list,
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationsKey }),
  });
}
