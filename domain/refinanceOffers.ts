import type { Address } from "viem";
import { orderDomain } from "./orders";

/**
 * The signed refinance offer types, field for field as contracts/libraries/OrderTypes.sol hashes them; they are
 * signed in the marketplace's EIP-712 domain (`orderDomain`), like every other order, and share its counters.
 * `maxPrincipal` caps what the borrower may borrow (their choice at the acceptance); `termMonths` and `rateBps` are the
 * new loan's terms. `MatchingRefinanceOffer`'s ranges are about the loan being refinanced: its yearly rate, seconds to
 * maturity and outstanding principal at the acceptance; its `budget` caps the principal lent over every loan it fills.
 * Every offer fills only while the loan is at most `maxDaysPastDue` days past due.
 */
export const REFINANCE_OFFER_TYPES = {
  RefinanceOffer: [
    { name: "lender", type: "address" },
    { name: "tokenId", type: "uint256" },
    { name: "rateBps", type: "uint256" },
    { name: "termMonths", type: "uint256" },
    { name: "maxPrincipal", type: "uint256" },
    { name: "maxDaysPastDue", type: "uint256" },
    { name: "expiry", type: "uint256" },
    { name: "salt", type: "uint256" },
    { name: "counter", type: "uint256" },
  ],
  MatchingRefinanceOffer: [
    { name: "lender", type: "address" },
    { name: "rateBps", type: "uint256" },
    { name: "termMonths", type: "uint256" },
    { name: "maxPrincipal", type: "uint256" },
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

export type RefinanceOfferKind = keyof typeof REFINANCE_OFFER_TYPES;

export interface SignedRefinanceOffer {
  lender: Address;
  tokenId: bigint;
  rateBps: bigint;
  termMonths: bigint;
  maxPrincipal: bigint;
  maxDaysPastDue: bigint;
  expiry: bigint;
  salt: bigint;
  counter: bigint;
}

export interface SignedMatchingRefinanceOffer {
  lender: Address;
  rateBps: bigint;
  termMonths: bigint;
  maxPrincipal: bigint;
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

interface OfferOf {
  RefinanceOffer: SignedRefinanceOffer;
  MatchingRefinanceOffer: SignedMatchingRefinanceOffer;
}

/**
 * What a lender's wallet signs (eth_signTypedData_v4) for a refinance offer, with integers as decimal strings so it
 * crosses the wire as JSON; only the signed kind's type is included.
 */
export function refinanceOfferTypedData<K extends RefinanceOfferKind>(kind: K, chainId: number, marketplace: Address, offer: OfferOf[K]) {
  const message: Record<string, string> = {};
  for (const { name } of REFINANCE_OFFER_TYPES[kind]) message[name] = String((offer as unknown as Record<string, unknown>)[name]);
  return {
    domain: orderDomain(chainId, marketplace),
    types: { [kind]: REFINANCE_OFFER_TYPES[kind] } as Pick<typeof REFINANCE_OFFER_TYPES, K>,
    primaryType: kind,
    message,
  };
}

/**
 * The borrower's choices as the marketplace's `Acceptance` takes them: `principal` borrowed (at most the offer's cap),
 * `minNet` the least principal - payoff they accept (negative: the most they pay in) and whether the new loan may end
 * before the old one's maturity.
 */
export interface RefinanceAcceptance {
  principal: bigint;
  minNet: bigint;
  allowShorterTerm: boolean;
}

/** What a refinance moves for the borrower at a given payoff: cash out (principal above it) or cash in (the shortfall). */
export function refinanceNet(principal: bigint, payoff: bigint): { cashOut: bigint; cashIn: bigint } {
  return principal >= payoff ? { cashOut: principal - payoff, cashIn: 0n } : { cashOut: 0n, cashIn: payoff - principal };
}
