import { parseUsd } from "#domain/money";
import { yieldToMaturity } from "#domain/noteYield";
import type { NftRecord } from "./types";

/**
 * The buyer's yield to maturity of a listed note at its listing price, from the API's record; null when unlisted.
 * The remaining installments are discounted from the instant the price was quoted (`servicing.asOf`, the chain's
 * clock): judged against any other clock (this browser's, a minute or a moved local chain away) a par price would
 * seem to buy installments later or sooner than it does, and the yield would drift from the note's rate.
 */
export function listedYield(nft: NftRecord): number | null {
  if (!nft.listingPrice) return null;
  const d = nft.metadata.loanDetails;
  const terms = { principal: parseUsd(d.amount), rateBps: Math.round(d.interestRate * 100), termMonths: d.termMonths, start: BigInt(nft.startTime) };
  return yieldToMaturity(terms, parseUsd(nft.totalRepaid), parseUsd(nft.listingPrice), BigInt(nft.servicing.asOf));
}

/**
 * Why a yield at 100% of par is not the note's rate, in the words shown beside it; null when they agree (to the
 * hundredth). Par is what settles the note now: the principal still owed plus interest accrued through the end of
 * today (a day counts from its first second), paid at the purchase before the day has run, which a short remaining
 * life weighs more. A borrower who paid ahead owes less than the principal still scheduled, so par is below it.
 */
export function parYieldWhy(ytm: number, ratePercent: number): string | null {
  const gap = Math.round((ytm - ratePercent) * 100);
  if (gap === 0) return null;
  return gap < 0
    ? `Below the note's ${ratePercent}% rate: par includes interest through the end of today, paid now, before that day has run.`
    : `Above the note's ${ratePercent}% rate: the borrower paid ahead, and par counts only what still settles the note.`;
}
