import { useQuery, useQueryClient } from "@tanstack/react-query";
import { wireNotificationListSchema, type WireNotificationList } from "#domain/wire/notification";
import { http, type Envelope } from "../http";
import { useRealtimeEvent } from "../realtime";
import { notificationKeys } from "./keys";

const BELL_SIZE = 15;
/** The notifications page's page size (the API allows up to 100; a long page is slow to scan on a phone). */
export const PAGE_SIZE = 20;

/** GET /notifications: one page of the caller's rows, newest first, the unread count and the paging. */
export async function getNotifications(page: number, limit: number): Promise<WireNotificationList> {
  const { data } = await http.get<Envelope<unknown>>("/notifications", { params: { page, limit } });
  return wireNotificationListSchema.parse(data.data);
}

/** A pushed notification refetches every list of them at once, so a new one shows without a reload. */
function useRefetchOnPush() {
  const queryClient = useQueryClient();
  useRealtimeEvent("notification:new", () => void queryClient.invalidateQueries({ queryKey: notificationKeys.all }));
}

/** The bell: the newest rows. Spec 02 §9: the notification poll runs every 10 s. */
export function useNotifications() {
  useRefetchOnPush();
  return useQuery({ queryKey: notificationKeys.bell, queryFn: () => getNotifications(1, BELL_SIZE), refetchInterval: 10_000, staleTime: 0 });
}

/** One page of the notifications page; the previous page stays on screen while the next one loads. */
export function useNotificationsPage(page: number) {
  useRefetchOnPush();
  return useQuery({
    queryKey: notificationKeys.page(page),
    queryFn: () => getNotifications(page, PAGE_SIZE),
    refetchInterval: 10_000,
    staleTime: 0,
    placeholderData: (previous) => previous,
  });
}
