import { useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { http, type Envelope } from "../../../lib/http";
import { useRealtimeEvent } from "../../../lib/realtime";

export const notificationSchema = z
  .object({
    _id: z.string(),
    type: z.string(),
    title: z.string().nullish(),
    message: z.string(),
    link: z.string().nullish(),
    isRead: z.boolean(),
    createdAt: z.string(),
  })
  .loose();
export type AdminNotification = z.infer<typeof notificationSchema>;

const listSchema = z.object({ notifications: z.array(notificationSchema), unreadCount: z.number() });
export type NotificationList = z.infer<typeof listSchema>;

export const notificationsKey = ["notifications", "bell"] as const;
const BELL_SIZE = 15;

/** GET /notifications: the newest rows and the unread count. */
export async function getNotifications(): Promise<NotificationList> {
  const { data } = await http.get<Envelope<unknown>>("/notifications", { params: { page: 1, limit: BELL_SIZE } });
  return listSchema.parse(data.data);
}

/** Spec 02 §9: the notification poll runs every 10 s; a pushed notification refetches at once. */
export function useNotifications() {
  const queryClient = useQueryClient();
  useRealtimeEvent("notification:new", () => void queryClient.invalidateQueries({ queryKey: notificationsKey }));
  return useQuery({ queryKey: notificationsKey, queryFn: getNotifications, refetchInterval: 10_000, staleTime: 0 });
}
