import { encodeFunctionData, type Address, type Hex } from "viem";
import { noteMarketplaceAbi } from "#domain/abis";
import { ORDER_TYPES, type SignedListing, type SignedMatchingOffer, type SignedOffer } from "#domain/orders";
import { permitSignatureParts } from "#domain/permit";
import type { WalletCall } from "../wallet/walletCall";

/** A signed order's message as the API stores it: every uint a decimal string, addresses as text. */
export type WireMessage = Record<string, string | number | bigint>;

/** The message with each field typed as the contract's struct wants it (uints as bigint), field for field of ORDER_TYPES. */
export function typedMessage<K extends keyof typeof ORDER_TYPES>(kind: K, message: WireMessage): Record<string, bigint | Address> {
  const out: Record<string, bigint | Address> = {};
  for (const field of ORDER_TYPES[kind]) {
    const value = message[field.name];
    if (value === undefined || value === null) throw new Error(`The signed ${kind} has no ${field.name}`);
    out[field.name] = field.type === "address" ? (String(value) as Address) : BigInt(value);
  }
  return out;
}

/**
 * An order's typed data as the API answers it (uints as decimal strings), made ready for a wallet to sign: the
 * primary type's fields only, uints as bigint, so the digest is the one the contract computes.
 */
export function walletTypedData(typed: {
  domain: { name: string; version: string; chainId: number; verifyingContract: string };
  types: Record<string, readonly { name: string; type: string }[]>;
  primaryType: string;
  message: Record<string, string>;
}) {
  const fields = typed.types[typed.primaryType];
  if (!fields) throw new Error(`The typed data has no ${typed.primaryType} type`);
  const message: Record<string, bigint | string> = {};
  for (const field of fields) {
    const value = typed.message[field.name];
    if (value === undefined) throw new Error(`The signed ${typed.primaryType} has no ${field.name}`);
    message[field.name] = field.type.startsWith("uint") ? BigInt(value) : value;
  }
  return {
    domain: { ...typed.domain, verifyingContract: typed.domain.verifyingContract as Address },
    types: { [typed.primaryType]: fields.map((f) => ({ name: f.name, type: f.type })) },
    primaryType: typed.primaryType,
    message,
  };
}

const call = (marketplace: Address, chainId: number, data: Hex): WalletCall => ({ to: marketplace, data, value: "0", chainId });

/**
 * `fillListing`: the fill alone, paid from an allowance approved before; it spends the price and leaves the rest,
 * so what was approved beyond the price keeps the buyer's offers funded.
 */
export function fillListingCall(target: { marketplace: Address; chainId: number }, listing: { message: WireMessage; signature: Hex }, maxPrice: bigint): WalletCall {
  const data = encodeFunctionData({
    abi: noteMarketplaceAbi,
    functionName: "fillListing",
    args: [typedMessage("Listing", listing.message) as unknown as SignedListing, listing.signature, maxPrice],
  });
  return call(target.marketplace, target.chainId, data);
}

/** `fillListingWithPermit`: the buyer's permit of `maxPrice` and the fill, in one transaction. */
export function fillListingWithPermitCall(
  target: { marketplace: Address; chainId: number },
  listing: { message: WireMessage; signature: Hex },
  maxPrice: bigint,
  permit: { deadline: bigint; signature: Hex },
): WalletCall {
  const { v, r, s } = permitSignatureParts(permit.signature);
  const data = encodeFunctionData({
    abi: noteMarketplaceAbi,
    functionName: "fillListingWithPermit",
    args: [typedMessage("Listing", listing.message) as unknown as SignedListing, listing.signature, maxPrice, permit.deadline, v, r, s],
  });
  return call(target.marketplace, target.chainId, data);
}

/** `acceptOffer`: the holder sells the note to an offer on it, for at least `minPrice`. */
export function acceptOfferCall(target: { marketplace: Address; chainId: number }, offer: { message: WireMessage; signature: Hex }, minPrice: bigint): WalletCall {
  const data = encodeFunctionData({
    abi: noteMarketplaceAbi,
    functionName: "acceptOffer",
    args: [typedMessage("Offer", offer.message) as unknown as SignedOffer, offer.signature, minPrice],
  });
  return call(target.marketplace, target.chainId, data);
}

/** `acceptMatchingOffer`: the holder of `tokenId` sells it to an offer on any matching note, for at least `minPrice`. */
export function acceptMatchingOfferCall(target: { marketplace: Address; chainId: number }, offer: { message: WireMessage; signature: Hex }, tokenId: bigint, minPrice: bigint): WalletCall {
  const data = encodeFunctionData({
    abi: noteMarketplaceAbi,
    functionName: "acceptMatchingOffer",
    args: [typedMessage("MatchingOffer", offer.message) as unknown as SignedMatchingOffer, offer.signature, tokenId, minPrice],
  });
  return call(target.marketplace, target.chainId, data);
}

/** `cancelOrders`: the signer cancels these orders of theirs, by EIP-712 hash. */
export function cancelOrdersCall(target: { marketplace: Address; chainId: number }, hashes: Hex[]): WalletCall {
  return call(target.marketplace, target.chainId, encodeFunctionData({ abi: noteMarketplaceAbi, functionName: "cancelOrders", args: [hashes] }));
}

/** `incrementCounter`: every order the signer signed so far stops being fillable. */
export function incrementCounterCall(target: { marketplace: Address; chainId: number }): WalletCall {
  return call(target.marketplace, target.chainId, encodeFunctionData({ abi: noteMarketplaceAbi, functionName: "incrementCounter" }));
}
