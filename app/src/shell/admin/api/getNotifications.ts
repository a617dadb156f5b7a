import { useQuery, useQueryClient } from "@tanstack/react-query";
import { wireNotificationListSchema, type WireNotificationList } from "#domain/wire/notification";
import { http, type Envelope } from "../../../lib/http";
import { useRealtimeEvent } from "../../../lib/realtime";

export const notificationsKey = ["notifications", "bell"] as const;
const BELL_SIZE = 15;

/** GET /notifications: the newest rows and the unread count. */
export async function getNotifications(): Promise<WireNotificationList> {
  const { data } = await http.get<Envelope<unknown>>("/notifications", { params: { page: 1, limit: BELL_SIZE } });
  return wireNotificationListSchema.parse(data.data);
}

/** The notification poll runs every 10 s; a pushed notification refetches at once. */
export function useNotifications() {
  const queryClient = useQueryClient();
  useRealtimeEvent("notification:new", () => void queryClient.invalidateQueries({ queryKey: notificationsKey }));
  return useQuery({ queryKey: notificationsKey, queryFn: getNotifications, refetchInterval: 10_000, staleTime: 0 });
}
