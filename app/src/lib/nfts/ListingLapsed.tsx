import { listingLapseText } from "#domain/listingLapse";
import { parseUsd } from "#domain/money";
import type { NftRecord } from "./types";

/** "Listing lapsed: <reason>", to the holder whose listing ended without a sale, until they list again. */
export function ListingLapsed({ nft }: { nft: NftRecord }) {
  const lapse = nft.listingLapse;
  if (!lapse || nft.marketplaceStatus === "listed") return null;
  return (
    <p className="alert alert--warning small" role="status" data-testid="listing-lapsed">
      Listing lapsed: {listingLapseText(lapse.reason, lapse.amount === null ? null : parseUsd(lapse.amount))}.
    </p>
  );
}
