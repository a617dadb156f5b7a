import { useQuery } from "@tanstack/react-query";
import { wireNotificationListSchema, type WireNotification } from "#domain/wire/notification";
import { http, type Envelope } from "../../../lib/http";
import { dashboardKeys } from "./getSummary";

/** GET /notifications?limit=3: the latest three notices. */
export async function getNotices(): Promise<WireNotification[]> {
  const { data } = await http.get<Envelope<unknown>>("/notifications", { params: { page: 1, limit: 3 } });
  return wireNotificationListSchema.parse(data.data).notifications;
}

export function useNotices() {
  return useQuery({ queryKey: dashboardKeys.notices, queryFn: getNotices, staleTime: 0 });
}
