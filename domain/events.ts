/**
 * Real-time event names and payloads.
 * Payloads are the spec's and may add loanId, tokenId and txHash; a lapsed listing's
 * "unlisted" adds why it lapsed.
 */
import type { ChainCollateralState, LoanStatus, KycStatus, ListingLapseReason } from "./statuses";
import type { OrderStatus } from "./orders";

export const SERVER_EVENTS = {
  connectionConfirmed: "connection:confirmed",
  loanStatus: "loan:status",
  loanFunded: "loan:funded",
  kycStatus: "kyc:status",
  adminNotification: "admin:notification",
  marketplaceUpdate: "marketplace:update",
  orderbookUpdate: "orderbook:update",
  collateralUpdate: "collateral:update",
  loanRefinanced: "loan:refinanced",
  loanRequestSubmitted: "loan:request:submitted",
  loanNew: "loan:new",
  notificationNew: "notification:new",
  pong: "pong",
} as const;
export type ServerEventName = (typeof SERVER_EVENTS)[keyof typeof SERVER_EVENTS];

export const CLIENT_EVENTS = {
  subscribeLoans: "subscribe:loans",
  subscribeMarketplace: "subscribe:marketplace",
  ping: "ping",
} as const;
export type ClientEventName = (typeof CLIENT_EVENTS)[keyof typeof CLIENT_EVENTS];

interface ChainRefs {
  loanId?: string;
  tokenId?: string;
  txHash?: string;
}

/** Amounts are decimal USD strings, as everywhere on the wire. */
export interface LoanStatusPayload extends ChainRefs {
  status: LoanStatus;
  amount: string;
  rejectionReason?: string | null;
}
export interface LoanFundedPayload extends ChainRefs {
  amount: string;
  nftId: string;
}
export interface KycStatusPayload {
  status: KycStatus;
  rejectionReason?: string | null;
}
export interface AdminNotificationPayload extends ChainRefs {
  type: "loan_request" | "kyc_submission" | "system_alert";
  message: string;
}
export interface MarketplaceUpdatePayload extends ChainRefs {
  /** "offer": a signed offer on the note was stored. */
  type: "listed" | "unlisted" | "sold" | "price_updated" | "repaid" | "burned" | "offer";
  /** For a listing that lapsed (type "unlisted"), the repayment that made it lapse. */
  amount: string | null;
  nftId: string;
  /** Set when the listing was not cancelled but lapsed: why (domain/statuses.ts LISTING_LAPSE_REASONS). */
  lapsed?: ListingLapseReason;
  /** Set when the note was sold by a signed order's fill (type "sold") or a signed order was stored: its hash. */
  orderHash?: string;
}

/**
 * A pledged NFT moved: locked into escrow at origination, returned to its borrower (or the return failed
 * and waits for their pull), or claimed by the note's holder after a default. Sent to the borrower, the note's holder,
 * the admins and the marketplace room.
 */
export interface CollateralUpdatePayload extends ChainRefs {
  tokenId: string;
  state: ChainCollateralState;
  collection: string;
  collateralId: string;
  /** The receiver of a return or a claim; for "returnFailed", the borrower it was meant for. */
  to?: string;
  /**
   * The collection's name, added by the API as it delivers the event (its metadata cache, nft_metadata), so the
   * notice and the toast name it; null when no name is known. The indexer does not write it.
   */
  collectionName?: string | null;
  /**
   * "holder" on the copy sent to the note's holder (and a claim's receiver) when that is not the borrower: the indexer
   * sends the borrower's row (with `loanId`, to admins and the marketplace too) and the holder's apart, so each hears
   * their own words (docs/decisions.md "NFT collateral off-chain").
   */
  audience?: "holder";
  /** A refinance's re-recording: the note the pledge was moved from (the piece never left the escrow). */
  movedFrom?: string;
}

/**
 * A loan was refinanced: note `tokenId` paid off with `payoff` (USD) and burned, note `newTokenId` minted to the new
 * lender for `principal`. One row per side, each hearing its own words: the borrower's (with `loanId`, the new loan's,
 * and to admins), the old note's holder's (paid off) and the new lender's (their new note).
 */
export interface LoanRefinancedPayload extends ChainRefs {
  tokenId: string;
  newTokenId: string;
  principal: string;
  payoff: string;
  audience: "borrower" | "holder" | "lender";
}

/**
 * A note's order book changed: an order was stored (status "open"), filled, or cancelled on-chain. A
 * cancellation by counter names no order and no note (`hash` and `tokenId` null): every order of `signer` signed before
 * it is cancelled. A cancellation of one hash names its note when the API's book knows it.
 */
export interface OrderbookUpdatePayload {
  tokenId: string | null;
  hash: string | null;
  status: OrderStatus;
  /** Who signed the order (or incremented their counter). */
  signer?: string;
  /** A fill: the price paid (USD), seller and buyer. */
  amount?: string;
  seller?: string;
  buyer?: string;
  counter?: string;
  txHash?: string;
}

export interface ServerEventPayloads {
  "connection:confirmed": { userId: string; role: string };
  "loan:status": LoanStatusPayload;
  "loan:funded": LoanFundedPayload;
  "kyc:status": KycStatusPayload;
  "admin:notification": AdminNotificationPayload;
  "marketplace:update": MarketplaceUpdatePayload;
  "orderbook:update": OrderbookUpdatePayload;
  "collateral:update": CollateralUpdatePayload;
  "loan:refinanced": LoanRefinancedPayload;
  "loan:request:submitted": LoanStatusPayload;
  "loan:new": LoanStatusPayload;
  "notification:new": { _id: string; type: string; title: string; message: string; link: string | null };
  pong: { timestamp: string };
}

/** Socket.io rooms: one per user, one for admins, one for marketplace watchers. */
export const ROOMS = {
  user: (userId: string) => `user:${userId}`,
  admins: "admins",
  marketplace: "marketplace",
  loans: "loans",
} as const;
