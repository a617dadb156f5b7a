import { useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { http, type Envelope } from "../../../lib/http";
import { dashboardKeys } from "./getSummary";

const notice = z.object({ _id: z.string(), type: z.string(), title: z.string(), message: z.string(), link: z.string().nullable(), read: z.boolean(), createdAt: z.string() });
export type Notice = z.infer<typeof notice>;

/** GET /notifications?limit=3: the latest three notices (spec 02 §9). */
export async function getNotices(): Promise<Notice[]> {
  const { data } = await http.get<Envelope<{ notifications: unknown }>>("/notifications", { params: { page: 1, limit: 3 } });
  return z.array(notice).parse(data.data.notifications);
}

export function useNotices() {
  return useQuery({ queryKey: dashboardKeys.notices, queryFn: getNotices, staleTime: 0 });
}
