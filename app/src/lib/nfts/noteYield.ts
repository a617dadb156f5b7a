import { parseUsd } from "#domain/money";
import { yieldToMaturity } from "#domain/noteYield";
import type { NftRecord } from "./types";

/** The buyer's yield to maturity of a listed note at its listing price, from the API's record; null when unlisted. */
/** `now` on the chain's clock (useChainNow). */
export function listedYield(nft: NftRecord, now: bigint): number | null {
  if (!nft.listingPrice) return null;
  const d = nft.metadata.loanDetails;
  const terms = { principal: parseUsd(d.amount), rateBps: Math.round(d.interestRate * 100), termMonths: d.termMonths, start: BigInt(nft.startTime) };
  return yieldToMaturity(terms, parseUsd(nft.totalRepaid), parseUsd(nft.listingPrice), now);
}
