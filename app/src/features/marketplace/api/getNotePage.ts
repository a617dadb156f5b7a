import type { QueryClient } from "@tanstack/react-query";
import { orderBookSchema } from "#domain/wire/order";
import { http, type Envelope } from "../../../lib/http";
import { marketplaceKeys } from "../../../lib/nfts/keys";
import { orderKeys } from "../../../lib/orders/keys";
import type { NftDetails } from "./getNft";
import type { Ownership } from "./getOwnership";

/**
 * GET /nfts/{id}/page: the note, its order book and its owners in one round trip. The book and the owners go into
 * their own queries' cache, where the page's sections (and the live updates that refetch them) read them.
 */
export async function getNotePage(id: string, queryClient: QueryClient): Promise<NftDetails> {
  const { data } = await http.get<Envelope<{ note: NftDetails; orderBook: unknown; ownership: Ownership }>>(`/nfts/${encodeURIComponent(id)}/page`);
  const { note, orderBook, ownership } = data.data;
  queryClient.setQueryData(orderKeys.book(note.tokenId), orderBookSchema.parse(orderBook));
  queryClient.setQueryData(marketplaceKeys.ownership(id), ownership);
  return note;
}
