import { http } from "../../../lib/http";
import { unwrap } from "../../../lib/nfts/unwrap";
import type { BrowseQuery, NftRecord } from "../../../lib/nfts/types";

export interface BrowseResult {
  nfts: NftRecord[];
  pagination: { page: number; limit: number; total: number; totalPages: number };
  stats: { totalListed: number; totalValue: string; activeLenders: number; avgRate: number };
}

export function browseMarketplace(q: BrowseQuery) {
  const params: Record<string, string> = { page: String(q.page), limit: String(q.limit), sort: q.sort };
  if (q.search) params.search = q.search;
  if (q.minAmount) params.minAmount = q.minAmount;
  if (q.maxAmount) params.maxAmount = q.maxAmount;
  if (q.rateBand?.length) params.rateBand = q.rateBand.join(",");
  if (q.amountBand?.length) params.amountBand = q.amountBand.join(",");
  if (q.collateral) params.collateral = q.collateral;
  return unwrap<BrowseResult>(http.get("/nfts/marketplace/browse", { params }));
}
