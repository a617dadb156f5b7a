import type { Address } from "viem";

/** EIP-712 domain of the marketplace's signed orders (contracts/NoteOrders.sol). */
export function orderDomain(chainId: number, marketplace: Address) {
  return { name: "LoanMint Marketplace", version: "1", chainId, verifyingContract: marketplace } as const;
}

/**
 * The signed order types, field for field as contracts/libraries/OrderTypes.sol hashes them. A `parBps` of 0 means a
 * fixed `price` bound to the note's change count `changes`; otherwise the price is parBps of the outstanding
 * principal at the fill, rounded down (an offer's at most `cap`). `MatchingOffer.minTermLeft`/`maxTermLeft` are
 * seconds to maturity at the fill.
 */
export const ORDER_TYPES = {
  Listing: [
    { name: "seller", type: "address" },
    { name: "tokenId", type: "uint256" },
    { name: "price", type: "uint256" },
    { name: "parBps", type: "uint256" },
    { name: "changes", type: "uint256" },
    { name: "expiry", type: "uint256" },
    { name: "salt", type: "uint256" },
    { name: "counter", type: "uint256" },
  ],
  Offer: [
    { name: "buyer", type: "address" },
    { name: "tokenId", type: "uint256" },
    { name: "price", type: "uint256" },
    { name: "parBps", type: "uint256" },
    { name: "cap", type: "uint256" },
    { name: "changes", type: "uint256" },
    { name: "expiry", type: "uint256" },
    { name: "salt", type: "uint256" },
    { name: "counter", type: "uint256" },
  ],
  MatchingOffer: [
    { name: "buyer", type: "address" },
    { name: "parBps", type: "uint256" },
    { name: "minRateBps", type: "uint256" },
    { name: "maxRateBps", type: "uint256" },
    { name: "minTermLeft", type: "uint256" },
    { name: "maxTermLeft", type: "uint256" },
    { name: "minOutstanding", type: "uint256" },
    { name: "maxOutstanding", type: "uint256" },
    { name: "budget", type: "uint256" },
    { name: "expiry", type: "uint256" },
    { name: "salt", type: "uint256" },
    { name: "counter", type: "uint256" },
  ],
} as const;

export interface SignedListing {
  seller: Address;
  tokenId: bigint;
  price: bigint;
  parBps: bigint;
  changes: bigint;
  expiry: bigint;
  salt: bigint;
  counter: bigint;
}

export interface SignedOffer {
  buyer: Address;
  tokenId: bigint;
  price: bigint;
  parBps: bigint;
  cap: bigint;
  changes: bigint;
  expiry: bigint;
  salt: bigint;
  counter: bigint;
}

export interface SignedMatchingOffer {
  buyer: Address;
  parBps: bigint;
  minRateBps: bigint;
  maxRateBps: bigint;
  minTermLeft: bigint;
  maxTermLeft: bigint;
  minOutstanding: bigint;
  maxOutstanding: bigint;
  budget: bigint;
  expiry: bigint;
  salt: bigint;
  counter: bigint;
}

/** Basis points in a whole: a par price is `outstanding * parBps / PAR_BPS`, rounded down (the buyer's favour). */
export const PAR_BPS = 10_000n;

export function parPrice(outstanding: bigint, parBps: bigint): bigint {
  return (outstanding * parBps) / PAR_BPS;
}

/** The three kinds of signed order, as the API and its table name them (the EIP-712 primary types differ). */
export const ORDER_KINDS = ["listing", "offer", "matchingOffer"] as const;
export type OrderKind = (typeof ORDER_KINDS)[number];

export const PRIMARY_TYPES = { listing: "Listing", offer: "Offer", matchingOffer: "MatchingOffer" } as const satisfies Record<
  OrderKind,
  keyof typeof ORDER_TYPES
>;

/**
 * Where a stored order stands: only `open` ones are shown in the book. `filled`, `cancelled` and `expired` are
 * final; `lapsed` (the note moved, defaulted, was repaid, or a fixed price's state changed) and `unfunded` (the
 * buyer lacks balance or allowance) may turn open again when the chain changes back.
 */
export const ORDER_STATUSES = ["open", "filled", "cancelled", "expired", "lapsed", "unfunded"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
