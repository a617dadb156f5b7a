import type { BrowseQuery } from "./types";

export const marketplaceKeys = {
  all: ["marketplace"] as const,
  browse: (q: BrowseQuery) => ["marketplace", "browse", q] as const,
  nft: (id: string) => ["marketplace", "nft", id] as const,
  ownership: (id: string) => ["marketplace", "ownership", id] as const,
  portfolio: ["portfolio"] as const,
};
