import { useQuery, useQueryClient } from "@tanstack/react-query";
import { myOrdersSchema, type MyOrders } from "#domain/wire/order";
import { http, type Envelope } from "../http";
import { useRealtimeEvent } from "../realtime";
import { orderKeys } from "./keys";

/** GET /orders/mine: what the user signed (every status) and the open offers on the notes they hold. */
export async function getMyOrders(): Promise<MyOrders> {
  const { data } = await http.get<Envelope<unknown>>("/orders/mine");
  return myOrdersSchema.parse(data.data);
}

export function useMyOrders() {
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: orderKeys.mine });
  useRealtimeEvent("marketplace:update", refresh);
  useRealtimeEvent("orderbook:update", refresh);
  return useQuery({ queryKey: orderKeys.mine, queryFn: getMyOrders, staleTime: 0, refetchInterval: 60_000 });
}
