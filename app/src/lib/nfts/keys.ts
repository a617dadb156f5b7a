import type { BrowseQuery } from "./types";

export const marketplaceKeys = {
  all: ["marketplace"] as const,
  browse: (q: BrowseQuery) => ["marketplace", "browse", q] as const,
  nft: (id: string) => ["marketplace", "nft", id] as const,
  ownership: (id: string) => ["marketplace", "ownership", id] as const,
  portfolio: ["portfolio"] as const,
};

/**
 * Every query a moved NFT changes: the note and the marketplace, the portfolio, the loans (the borrower's
 * pages, under "loans") and the explorer's token pages. Prefixes only: lib code cannot import a feature's keys.
 */
export const collateralQueryPrefixes = [marketplaceKeys.all, marketplaceKeys.portfolio, ["loans"], ["explorer", "token"]] as const;
