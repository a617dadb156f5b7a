import { daysPastDueText } from "#domain/servicing";
import { NFT_MESSAGES } from "#domain/marketplaceTerms";
import { displayUsd } from "#domain/money";
import type { ListingLapseReason } from "#domain/statuses";

/** What changed a note after it was listed, in the words of a refused purchase. */
const LAPSED_BECAUSE: Record<ListingLapseReason, string> = {
  repaid: "the borrower repaid part of the loan",
  defaulted: "the loan defaulted",
  moved: "the note moved",
  burned: "the loan was repaid in full",
};

/** What the NFT routes answer; each refusal says what to do next. */
export const NFT_ANSWERS = {
  notFound: "NFT not found",
  noDeployment: "The contracts are not deployed on this chain yet",
  chainDown: "The chain cannot be reached right now. Please try again later.",
  beyondHead: (block: number, head: bigint) => `Block ${block} is beyond the chain's head (block ${head}): no transaction can be in it yet`,
  mirrorBusy: "Too many requests are waiting for the chain mirror. Please try again in a moment.",
  kycRequired: "KYC verification must be approved before you can buy notes",
  walletRequired: "Link and verify a wallet in your profile first",
  notOwner: "You do not own this note",
  notSeller: "Only the seller can unlist this note",
  notListed: "This note is not listed for sale",
  expired: "This listing has expired, so it can no longer be bought",
  late: (days: number) => `This note's borrower is ${daysPastDueText(days)}, so its listing cannot be bought until the loan is current again`,
  stale: "This listing is stale: the note has moved since it was listed, so it can no longer be bought",
  lapsed: (reason: ListingLapseReason) => `This listing lapsed: ${LAPSED_BECAUSE[reason]} since it was listed, so it can no longer be bought`,
  priceChanged: (price: bigint) => `The price of this note changed to ${displayUsd(price)}. Please review it before buying.`,
  ownNote: "You cannot buy your own note",
  priceTooHigh: "Listing price is too high",
  funds: (balance: bigint, price: bigint) => `Your wallet holds ${displayUsd(balance)} in test dollars; this note costs ${displayUsd(price)}`,
  inVault: "This note is in the vault: withdraw it before listing or transferring it",
  notDepositor: "Only the account that deposited this note can withdraw it",
  notInVault: "This note is not in the vault",
  repaid: "This note was repaid and no longer exists",
  sameAddress: "The destination must differ from the current address",
  fromWallet: "You can only move notes from your verified wallet",
  listReady: "Sign and send the listing transaction from your wallet",
  unlistReady: "Sign and send the cancellation from your wallet",
  buyReady: "Sign the permit, then send the purchase from your wallet",
  transferReady: NFT_MESSAGES.transferStarted,
} as const;
