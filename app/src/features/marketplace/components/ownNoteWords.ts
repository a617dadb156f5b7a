import { displayUsd } from "#domain/money";
import type { PayoffSplit } from "#domain/servicing";
import { parBreakdown } from "../../../lib/orders/parWords";

/** Whether the buyer's verified wallet is the one their loan was funded to: the note they are buying is their own debt. */
export function isOwnLoanNote(borrowerAddress: string, verifiedWallet: string | null): boolean {
  return verifiedWallet !== null && borrowerAddress.toLowerCase() === verifiedWallet.toLowerCase();
}

/** How the price stands against the payoff today: nothing when equal (100% of par), else the difference. */
function againstPayoff(price: bigint, payoff: bigint): string {
  if (price === payoff) return "exactly what paying the loan off early costs today";
  const gap = price > payoff ? `${displayUsd(price - payoff)} more` : `${displayUsd(payoff - price)} less`;
  return `${gap} than paying the loan off early today`;
}

/**
 * What a borrower reads before buying the note of their own loan. Par is the dirty price, so at 100% of par the
 * price is the payoff itself: the purchase is an early payoff with the platform's fee taken out of it, and the loan
 * stays open on a note they hold, while a payoff from the loan's page settles it with no fee.
 */
export function ownNoteWords(price: bigint, split: PayoffSplit, fee: bigint | null): string {
  const payoff = split.principal + split.interest;
  const feeText = fee === null ? "the marketplace's fee comes out of that price" : `the marketplace keeps ${displayUsd(fee)} of that price as its fee`;
  return (
    `This note is your own loan's. With par as the dirty price, buying it is an early payoff plus the platform fee: ` +
    `you pay ${displayUsd(price)}, ${againstPayoff(price, payoff)} (${parBreakdown(split, 10_000n)}), and ${feeText}. ` +
    `The loan stays open and its later repayments come back to you as the note's holder. ` +
    `Repaying early from My Loans settles the loan for ${displayUsd(payoff)} with no fee and burns the note.`
  );
}
