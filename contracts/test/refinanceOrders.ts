import { getAddress, maxUint256, type Address, type Hex } from "viem";
import { REFINANCE_OFFER_TYPES, refinanceOfferTypedData, type RefinanceAcceptance, type SignedMatchingRefinanceOffer, type SignedRefinanceOffer } from "#domain/refinanceOffers";
import { DEFAULT_TERMS } from "./fixtures";
import { now } from "./helpers";
import type { LoanNoteFixture } from "./fixtures";
import type { Signer } from "./orders";

type Wallet = LoanNoteFixture["wallets"][number];
const signerAddress = (s: Signer): Address => ("wallet" in s ? s.wallet : getAddress(s.account.address));
const keyOf = (s: Signer): Wallet => ("wallet" in s ? s.owner : s);

let salt = 1_000_000n;

/** Signs with the domain's typed-data builder, as a lender's wallet would from the API's answer. */
async function sign<K extends keyof typeof REFINANCE_OFFER_TYPES>(f: LoanNoteFixture, signer: Signer, kind: K, offer: never): Promise<Hex> {
  const typed = refinanceOfferTypedData(kind, await f.publicClient.getChainId(), f.marketplace.address, offer);
  const wallet = keyOf(signer);
  return wallet.signTypedData({ ...(typed as object), account: wallet.account } as never);
}

async function defaults(f: LoanNoteFixture, signer: Signer) {
  return { maxDaysPastDue: 0n, expiry: (await now(f)) + 730n * 86_400n, salt: salt++, counter: await f.marketplace.read.counterOf([signerAddress(signer)]) };
}

/** A lender's signed offer to refinance `tokenId`: by default 9% over 12 months, up to $2,000. */
export async function signRefinanceOffer(f: LoanNoteFixture, lender: Signer, fields: Partial<SignedRefinanceOffer> & { tokenId: bigint }) {
  const order: SignedRefinanceOffer = {
    lender: signerAddress(lender),
    rateBps: 900n,
    termMonths: 12n,
    maxPrincipal: 2n * DEFAULT_TERMS.principal,
    ...(await defaults(f, lender)),
    ...fields,
  };
  return { order, signature: await sign(f, lender, "RefinanceOffer", order as never), hash: await f.marketplace.read.hashRefinanceOffer([order]) };
}

/** A lender's signed offer to refinance any loan: every range open, 9% over 12 months, up to $2,000 each, $10,000 in all. */
export async function signMatchingRefinanceOffer(f: LoanNoteFixture, lender: Signer, fields: Partial<SignedMatchingRefinanceOffer> = {}) {
  const order: SignedMatchingRefinanceOffer = {
    lender: signerAddress(lender),
    rateBps: 900n,
    termMonths: 12n,
    maxPrincipal: 2n * DEFAULT_TERMS.principal,
    minRateBps: 0n,
    maxRateBps: maxUint256,
    minTermLeft: 0n,
    maxTermLeft: maxUint256,
    minOutstanding: 0n,
    maxOutstanding: maxUint256,
    budget: 10n * DEFAULT_TERMS.principal,
    ...(await defaults(f, lender)),
    ...fields,
  };
  return {
    order,
    signature: await sign(f, lender, "MatchingRefinanceOffer", order as never),
    hash: await f.marketplace.read.hashMatchingRefinanceOffer([order]),
  };
}

/** The borrower's acceptance: `principal`, taking any net (cash out or paying in up to the whole payoff). */
export function acceptance(principal: bigint, fields: Partial<RefinanceAcceptance> = {}): RefinanceAcceptance {
  return { principal, minNet: -(10n ** 15n), allowShorterTerm: false, ...fields };
}
