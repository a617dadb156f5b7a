import { maxUint256 } from "viem";
import type { OrderRow } from "#db/schema/orders";
import { formatUsdAmount } from "#domain/money";
import type { OrderTerms } from "#domain/orderStatus";
import type { WireOrder } from "#domain/wire/order";

/** A stored bound of "no bound": the signed maximum was the largest uint256. */
const bound = (value: bigint | number | null) => (value === null ? maxUint256 : BigInt(value));

/** The EIP-712 message exactly as its signer signed it, rebuilt from the stored row (uints as bigint). */
export function messageOf(row: OrderRow): Record<string, bigint | `0x${string}`> {
  const signer = row.signer as `0x${string}`;
  const common = { maxDaysPastDue: row.maxDaysPastDue, expiry: row.expiry, salt: row.salt, counter: row.counter };
  if (row.kind === "listing") {
    return { seller: signer, tokenId: row.tokenId!, price: row.price, parBps: BigInt(row.parBps), changes: row.changes ?? 0n, ...common };
  }
  if (row.kind === "offer") {
    return { buyer: signer, tokenId: row.tokenId!, price: row.price, parBps: BigInt(row.parBps), cap: row.cap ?? 0n, changes: row.changes ?? 0n, ...common };
  }
  return {
    buyer: signer,
    parBps: BigInt(row.parBps),
    minRateBps: BigInt(row.minRateBps ?? 0),
    maxRateBps: bound(row.maxRateBps),
    minTermLeft: row.minTermLeft ?? 0n,
    maxTermLeft: bound(row.maxTermLeft),
    minOutstanding: row.minOutstanding ?? 0n,
    maxOutstanding: bound(row.maxOutstanding),
    budget: row.budget ?? 0n,
    ...common,
  };
}

export function termsOf(row: OrderRow): OrderTerms {
  return {
    kind: row.kind,
    signer: row.signer,
    tokenId: row.tokenId,
    price: row.price,
    parBps: BigInt(row.parBps),
    cap: row.cap,
    changes: row.changes,
    maxDaysPastDue: row.maxDaysPastDue,
    minOutstanding: row.minOutstanding,
    budget: row.budget,
    expiry: row.expiry,
    counter: row.counter,
  };
}

const usd = (value: bigint | null) => (value === null ? null : formatUsdAmount(value));
const seconds = (value: bigint | null) => (value === null ? null : Number(value));

/**
 * The wire shape (domain/wire/order.ts). `tokenId` is the note the order is shown for: a matching offer shown in
 * a note's book or among a holder's received offers carries that note (its signed message names none).
 */
export function toWireOrder(row: OrderRow, view: { priceNow: bigint | null; tokenId?: bigint }): WireOrder {
  const message = Object.fromEntries(Object.entries(messageOf(row)).map(([k, v]) => [k, v.toString()]));
  const tokenId = view.tokenId ?? row.tokenId;
  return {
    hash: row.hash,
    kind: row.kind,
    signer: row.signer,
    tokenId: tokenId === null ? null : tokenId.toString(),
    priceKind: row.parBps === 0 ? "fixed" : "par",
    price: row.parBps === 0 ? formatUsdAmount(row.price) : null,
    parBps: row.parBps,
    maxDaysPastDue: Number(row.maxDaysPastDue),
    cap: row.kind === "offer" && row.parBps !== 0 ? usd(row.cap) : null,
    ranges:
      row.kind === "matchingOffer"
        ? {
            minRateBps: row.minRateBps ?? 0,
            maxRateBps: row.maxRateBps,
            minTermLeft: Number(row.minTermLeft ?? 0n),
            maxTermLeft: seconds(row.maxTermLeft),
            minOutstanding: formatUsdAmount(row.minOutstanding ?? 0n),
            maxOutstanding: usd(row.maxOutstanding),
          }
        : null,
    budget: usd(row.budget),
    filled: formatUsdAmount(row.filled),
    expiresAt: new Date(Number(row.expiry) * 1000).toISOString(),
    status: row.status,
    statusReason: row.statusReason,
    priceNow: usd(view.priceNow),
    message,
    signature: row.signature,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}
