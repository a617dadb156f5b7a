import type { OrderRow } from "#db/schema/orders";
import { formatUsdAmount } from "#domain/money";
import { parPrice } from "#domain/orders";
import { isExpired, orderPriceFor } from "#domain/orderStatus";
import { maturity, type LoanTerms } from "#domain/schedule";
import { pastDue } from "#domain/servicing";
import { parSplit, type FeeParams } from "#domain/servicingRecord";
import type { BestOfferSummary, SignedListingSummary } from "#domain/wire/nft";
import { messageOf } from "./wire";

/** A note as the marketplace's mirror knows it: enough to price and match orders without a chain read. */
export interface MirroredNote {
  tokenId: bigint;
  /** The ERC-721 owner (a listing's seller must be it). */
  owner: string;
  /** Who the note belongs to (the depositor while in the vault): their own offers do not count. */
  holder: string;
  terms: LoanTerms;
  totalRepaid: bigint;
  /** How far its late fees are paid: a par price includes those owed. */
  feesPaidThrough: number;
}

export type BestListing = SignedListingSummary;
export type BestOffer = BestOfferSummary;

/**
 * The cheapest open signed listing and the highest open offer (on the note, or matching it) of each note, priced
 * from the mirror at the chain's clock `nowSeconds`: the dirty price and days past due the mirror computes are the
 * contract's (domain/ mirrors LoanMath). Statuses are the stored ones (refreshed whenever an order is read for a book,
 * and by the indexer); expired orders, and orders on a note later than they accept, are left out here by the clock.
 */
function listingSummary({ row, price }: { row: OrderRow; price: bigint }): BestListing {
  return {
    hash: row.hash,
    seller: row.signer,
    priceKind: row.parBps === 0 ? "fixed" : "par",
    parBps: row.parBps,
    priceNow: formatUsdAmount(price),
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

export function bestOrdersByNote(notes: MirroredNote[], orders: OrderRow[], nowSeconds: bigint, fees: FeeParams) {
  // A listing the borrower's lateness holds back is kept too: the note stays on the market, marked late, unbuyable.
  const live = orders.filter((o) => (o.status === "open" || (o.status === "late" && o.kind === "listing")) && !isExpired(o.expiry, nowSeconds));
  const listings = new Map<string, OrderRow[]>();
  const offers = new Map<string, OrderRow[]>();
  const matching: OrderRow[] = [];
  for (const o of live) {
    if (o.kind === "matchingOffer") matching.push(o);
    else {
      const into = o.kind === "listing" ? listings : offers;
      const key = o.tokenId!.toString();
      into.set(key, [...(into.get(key) ?? []), o]);
    }
  }
  const result = new Map<string, { listing: BestListing | null; heldListing: BestListing | null; offer: BestOffer | null }>();
  for (const note of notes) {
    const key = note.tokenId.toString();
    const split = parSplit({ terms: note.terms, repaid: note.totalRepaid, feesPaidThrough: note.feesPaidThrough }, nowSeconds, fees);
    const outstanding = split.principal;
    const lateBy = BigInt(pastDue(note.terms, note.totalRepaid, nowSeconds).daysPastDue);
    const accepts = (row: OrderRow) => lateBy <= row.maxDaysPastDue;
    let listing: { row: OrderRow; price: bigint } | null = null;
    let held: { row: OrderRow; price: bigint } | null = null;
    for (const row of listings.get(key) ?? []) {
      if (row.signer !== note.owner) continue;
      const price = orderPriceFor({ price: row.price, parBps: BigInt(row.parBps), cap: null }, split);
      if (!accepts(row)) {
        if (!held || price < held.price) held = { row, price };
      } else if (row.status === "open" && (!listing || price < listing.price)) listing = { row, price };
    }
    let offer: { row: OrderRow; price: bigint } | null = null;
    for (const row of offers.get(key) ?? []) {
      if (row.signer === note.holder || !accepts(row)) continue;
      const price = orderPriceFor({ price: row.price, parBps: BigInt(row.parBps), cap: row.cap }, split);
      if (!offer || price > offer.price) offer = { row, price };
    }
    const termLeft = maturity(note.terms) > nowSeconds ? maturity(note.terms) - nowSeconds : 0n;
    for (const row of matching) {
      if (row.signer === note.holder || !accepts(row)) continue;
      const m = messageOf(row) as Record<string, bigint>;
      const inside = (v: bigint, min: bigint, max: bigint) => v >= min && v <= max;
      if (!inside(BigInt(note.terms.rateBps), m.minRateBps, m.maxRateBps) || !inside(termLeft, m.minTermLeft, m.maxTermLeft) || !inside(outstanding, m.minOutstanding, m.maxOutstanding)) continue;
      const price = parPrice(split, BigInt(row.parBps));
      if (price > (row.budget ?? 0n) - row.filled) continue;
      if (!offer || price > offer.price) offer = { row, price };
    }
    result.set(key, {
      listing: listing && listingSummary(listing),
      heldListing: listing ? null : held && listingSummary(held),
      offer: offer && { hash: offer.row.hash, kind: offer.row.kind as BestOffer["kind"], buyer: offer.row.signer, priceNow: formatUsdAmount(offer.price) },
    });
  }
  return result;
}
