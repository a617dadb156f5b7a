import { parseUsd } from "#domain/money";
import type { WireOrder } from "#domain/wire/order";

type ExposureOrder = Pick<WireOrder, "hash" | "kind" | "status" | "priceKind" | "price" | "cap" | "priceNow" | "budget" | "filled">;

/** Offers the marketplace may still be asked to pay from the signer's allowance: open ones and unfunded ones, which turn open as soon as the allowance is there. */
export const isLiveOffer = (o: Pick<WireOrder, "kind" | "status">) => o.kind !== "listing" && (o.status === "open" || o.status === "unfunded");

/**
 * The most one offer can take (micro-dollars): a fixed price; a par offer's cap, since its price grows with the
 * interest up to it (its price now when it has none); a matching offer's budget left, since holders may accept it
 * note after note until it is spent.
 */
export function offerMost(o: ExposureOrder): bigint {
  if (o.kind === "matchingOffer") {
    const left = parseUsd(o.budget ?? "0") - parseUsd(o.filled);
    return left > 0n ? left : 0n;
  }
  if (o.priceKind === "fixed") return parseUsd(o.price ?? "0");
  return parseUsd(o.cap ?? o.priceNow ?? "0");
}

/**
 * What the user's live offers can take in all, and how many there are: the allowance that keeps every one of them
 * funded. `except` leaves one out (the offer at hand, counted on its own).
 */
export function openOfferExposure(made: readonly ExposureOrder[], except?: string): { count: number; total: bigint } {
  const live = made.filter((o) => isLiveOffer(o) && o.hash !== except);
  return { count: live.length, total: live.reduce((sum, o) => sum + offerMost(o), 0n) };
}
