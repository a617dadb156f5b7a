import { useQuery, useQueryClient } from "@tanstack/react-query";
import { orderBookSchema, type OrderBook } from "#domain/wire/order";
import { http, type Envelope } from "../http";
import { useRealtimeEvent } from "../realtime";
import { orderKeys } from "./keys";

/** GET /orders/note/{tokenId}: the note's open listings and offers, best first, and its best offer. */
export async function getOrderBook(tokenId: string): Promise<OrderBook> {
  const { data } = await http.get<Envelope<unknown>>(`/orders/note/${encodeURIComponent(tokenId)}`);
  return orderBookSchema.parse(data.data);
}

/**
 * The book, live: refetched when an order on this note changes (orderbook:update) or the note itself does
 * (marketplace:update). `staleTime` lets a page that read the book with its note keep that copy instead of asking again.
 */
export function useOrderBook(tokenId: string, enabled = true, staleTime = 0) {
  const queryClient = useQueryClient();
  const refresh = (payload: { tokenId?: string; nftId?: string }) => {
    if (String(payload.tokenId ?? payload.nftId ?? "") === tokenId) void queryClient.invalidateQueries({ queryKey: orderKeys.book(tokenId) });
  };
  useRealtimeEvent("marketplace:update", refresh);
  // A cancellation by hash names no note (tokenId null): it may be one of this book's, so the book is read again.
  useRealtimeEvent("orderbook:update", (payload) => {
    if (payload.tokenId === null || payload.tokenId === tokenId) void queryClient.invalidateQueries({ queryKey: orderKeys.book(tokenId) });
  });
  return useQuery({ queryKey: orderKeys.book(tokenId), queryFn: () => getOrderBook(tokenId), enabled, staleTime });
}
