/** Status vocabularies shared by api, indexer and app. */

export const ROLES = ["user", "admin"] as const;
export type Role = (typeof ROLES)[number];

export const KYC_STATUSES = ["none", "pending", "approved", "rejected"] as const;
export type KycStatus = (typeof KYC_STATUSES)[number];

export const LOAN_STATUSES = ["pending", "approved", "active", "completed", "rejected", "defaulted"] as const;
export type LoanStatus = (typeof LOAN_STATUSES)[number];

/** Beside the loan status: where the note's origination stands. */
export const MINT_STATUSES = ["none", "minting", "minted", "failed"] as const;
export type MintStatus = (typeof MINT_STATUSES)[number];

/** Beside the mint status: where the treasury's first listing of the note stands. */
export const LISTING_STATES = ["none", "listing", "listed", "failed"] as const;
export type ListingState = (typeof LISTING_STATES)[number];

/** The marketplace monitor's view of an active loan: nothing repaid yet = funded, something repaid = repaying. */
export const MONITOR_STATUSES = [...LOAN_STATUSES, "funded", "repaying"] as const;
export type MonitorStatus = (typeof MONITOR_STATUSES)[number];

export function monitorStatus(status: LoanStatus, totalRepaidMicro: bigint): MonitorStatus {
  if (status !== "active") return status;
  return totalRepaidMicro > 0n ? "repaying" : "funded";
}

/**
 * Why a listing lapsed: a change of the note its buyer would have priced (a buyer gets the note state
 * they priced): a repayment, a default, a move to another holder (the vault too), a burn.
 */
export const LISTING_LAPSE_REASONS = ["repaid", "defaulted", "moved", "burned"] as const;
export type ListingLapseReason = (typeof LISTING_LAPSE_REASONS)[number];

/**
 * Where a pledged NFT stands: "pledged" on a request not yet originated, "released" when that request was
 * rejected (nothing was escrowed and the piece may be pledged again), then as LoanNote's Collateral* events leave it:
 * in escrow ("locked"), refused by its collection at the final payment and waiting for the borrower to pull it
 * ("returnFailed"), back with the borrower ("returned"), taken by the note's holder after a default ("claimed"), or
 * re-recorded for the note a refinance minted ("moved": the piece stayed in escrow, the new note's pledge is "locked").
 */
export const COLLATERAL_STATES = ["pledged", "released", "locked", "returnFailed", "returned", "claimed", "moved"] as const;
export type CollateralState = (typeof COLLATERAL_STATES)[number];
/** The states the chain mirror records (chain_collateral.state); "pledged" and "released" are off-chain only. */
export type ChainCollateralState = Exclude<CollateralState, "pledged" | "released">;

export const NOTIFICATION_TYPES = [
  "loan_request",
  "loan_approved",
  "loan_rejected",
  "loan_funded",
  "loan_status",
  "loan_repayment",
  "loan_refinanced",
  "kyc_submission",
  "kyc_approved",
  "kyc_rejected",
  "nft_listed",
  "nft_sold",
  "listing_lapsed",
  "offer_received",
  "order_filled",
  "collateral",
  "servicing_reminder",
  "system_alert",
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** Where a loan with a note stands against its schedule (domain/servicing.ts): late 1–29 days past due, delinquent 30+. */
export const SERVICING_STATUSES = ["current", "late", "delinquent", "defaulted", "repaid"] as const;
export type ServicingStatus = (typeof SERVICING_STATUSES)[number];
