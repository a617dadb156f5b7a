import type { QueryClient } from "@tanstack/react-query";
import type { WireNotificationList } from "#domain/wire/notification";
import { notificationKeys } from "./keys";

/**
 * Marks the named rows (all, without `id`) read in every cached list at once, so the bell and the page agree before
 * the server answers; a done row was never counted unread, so it does not lower the count.
 */
export function markLocally(queryClient: QueryClient, id?: string) {
  queryClient.setQueriesData<WireNotificationList>({ queryKey: notificationKeys.all }, (list) => {
    if (!list) return list;
    const hit = (n: { _id: string }) => id === undefined || n._id === id;
    const newlyRead = list.notifications.filter((n) => hit(n) && !n.isRead && !n.done).length;
    return {
      ...list,
      notifications: list.notifications.map((n) => (hit(n) ? { ...n, read: true, isRead: true } : n)),
      unreadCount: id === undefined ? 0 : Math.max(0, list.unreadCount - newlyRead),
    };
  });
}
