import { useQueryClient } from "@tanstack/react-query";
import { useRealtimeEvent } from "../../../lib/realtime";
import { adminKeys } from "../api/keys";

/** Live events make the admin pages refetch what they show, never patch it locally. */
export function useAdminLive() {
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: adminKeys.all });
  useRealtimeEvent("loan:new", refresh);
  useRealtimeEvent("loan:status", refresh);
  useRealtimeEvent("loan:funded", refresh);
  useRealtimeEvent("marketplace:update", refresh);
  useRealtimeEvent("admin:notification", refresh);
}
