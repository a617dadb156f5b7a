import { displayUsd } from "#domain/money";
import type { WireLoan } from "#domain/wire/loan";

export interface MintReviewLine {
  label: string;
  value: string;
  testId: string;
}

/**
 * What sending an approved loan's origination again does with the treasury's money, said before the admin confirms:
 * the amount leaving the treasury, the wallet it reaches, where the note goes and, for a secured loan, the escrow.
 */
export function mintReviewLines(loan: Pick<WireLoan, "principal" | "borrowerWallet" | "user" | "collateral">): MintReviewLine[] {
  const wallet = loan.borrowerWallet ?? loan.user.walletAddress;
  const lines: MintReviewLine[] = [
    { label: "From the treasury", value: loan.principal === null ? "the approved principal" : displayUsd(BigInt(loan.principal)), testId: "review-amount" },
    { label: "To the borrower's wallet", value: wallet ?? "the borrower's verified wallet", testId: "review-recipient" },
    { label: "The note", value: "minted to the treasury, then listed at 100% of par by signature (no gas)", testId: "review-note" },
  ];
  const nft = loan.collateral?.nft;
  if (nft) lines.push({ label: "Collateral", value: `${nft.name ?? `token #${nft.tokenId}`} moves into escrow in the same transaction`, testId: "review-collateral" });
  return lines;
}
