import type { Address } from "viem";
import type { PayoffSplit } from "./servicing";

/** EIP-712 domain of the marketplace's signed orders (contracts/NoteOrders.sol). */
export function orderDomain(chainId: number, marketplace: Address) {
  return { name: "LoanMint Marketplace", version: "1", chainId, verifyingContract: marketplace } as const;
}

/**
 * The signed order types, field for field as contracts/libraries/OrderTypes.sol hashes them. A `parBps` of 0 means a
 * fixed `price` bound to the note's change count `changes`; otherwise the price is `parPrice` at the fill (an
 * offer's at most `cap`). `MatchingOffer.minTermLeft`/`maxTermLeft` are seconds to maturity at the fill. Every order
 * fills only while the note is at most `maxDaysPastDue` days past due: 0, current notes only, is the default.
 */
export const ORDER_TYPES = {
  Listing: [
    { name: "seller", type: "address" },
    { name: "tokenId", type: "uint256" },
    { name: "price", type: "uint256" },
    { name: "parBps", type: "uint256" },
    { name: "changes", type: "uint256" },
    { name: "maxDaysPastDue", type: "uint256" },
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
    { name: "maxDaysPastDue", type: "uint256" },
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
    { name: "maxDaysPastDue", type: "uint256" },
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
  maxDaysPastDue: bigint;
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
  maxDaysPastDue: bigint;
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
  maxDaysPastDue: bigint;
  budget: bigint;
  expiry: bigint;
  salt: bigint;
  counter: bigint;
}

/** Basis points in a whole: 10,000 is 100% of par. */
export const PAR_BPS = 10_000n;

/**
 * The dirty price, as loan markets quote par: `parBps` of the outstanding principal, rounded down (the buyer's
 * favour), plus the interest accrued and unpaid, paid in full; 100% of par is what would settle the note then.
 */
export function parPrice(split: PayoffSplit, parBps: bigint): bigint {
  return (split.principal * parBps) / PAR_BPS + split.interest;
}

/** The three kinds of signed order, as the API and its table name them (the EIP-712 primary types differ). */
export const ORDER_KINDS = ["listing", "offer", "matchingOffer"] as const;
export type OrderKind = (typeof ORDER_KINDS)[number];

export const PRIMARY_TYPES = { listing: "Listing", offer: "Offer", matchingOffer: "MatchingOffer" } as const satisfies Record<OrderKind, keyof typeof ORDER_TYPES>;

/**
 * Where a stored order stands: only `open` ones are shown in the book. `filled`, `cancelled` and `expired` are
 * final; `lapsed` (the note moved, defaulted, was repaid, or a fixed price's state changed), `late` (the note is
 * further past due than the order accepts: open again once the borrower cures it) and `unfunded` (the buyer lacks
 * balance or allowance) may turn open again when the chain changes back.
 */
export const ORDER_STATUSES = ["open", "filled", "cancelled", "expired", "lapsed", "late", "unfunded"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
