import { displayUsd } from "#domain/money";

/**
 * ERC-20 `approve` sets the allowance rather than adding to it, so the amount to approve is everything the
 * marketplace may be asked for: the other open offers' exposure plus what the action at hand can take (an offer's
 * most, or a purchase's price, which the fill spends and leaves the exposure behind).
 */
export const allowanceToCover = (othersExposure: bigint, most: bigint) => othersExposure + most;

const offersText = (count: number) => `your ${count} open offer${count === 1 ? "" : "s"}`;

/** The allow button's words: what the amount covers, so nobody approves one offer and unfunds the others. */
export function allowButtonText(amount: bigint, othersCount: number, forThisOne: boolean): string {
  if (!forThisOne) return `Allow ${displayUsd(amount)}: ${offersText(othersCount)}`;
  return othersCount === 0 ? `Allow ${displayUsd(amount)}: this offer` : `Allow ${displayUsd(amount)}: ${offersText(othersCount)} and this one`;
}

/** What a permit purchase does to the user's offers: the permit sets the allowance to the price, and the fill spends it. */
export function unfundedByPermitText(count: number, exposure: bigint): string {
  return `${offersText(count)} (${displayUsd(exposure)}) would become unfunded: the permit sets what the marketplace may take to the price, and the purchase spends it`;
}

/**
 * A payment's review when the wallet would keep less than its open offers may take: those offers leave the book as
 * unfunded (a book shows only what would fill now) until the wallet holds enough again. Null when they stay funded.
 */
export function offersLeftShortText(balance: bigint, pays: bigint, exposure: { count: number; total: bigint }): string | null {
  const left = balance > pays ? balance - pays : 0n;
  if (exposure.count === 0 || left >= exposure.total) return null;
  return `After this payment the wallet keeps ${displayUsd(left)}, less than ${offersText(exposure.count)} may take (${displayUsd(exposure.total)}): ${exposure.count === 1 ? "it leaves" : "they leave"} the order book, unfunded, until the wallet holds enough again.`;
}
