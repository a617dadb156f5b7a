import { amountBandOf, rateBandOf, type MarketplaceQuery } from "#domain/schemas/nfts";
import { formatUsdAmount, parseUsd } from "#domain/money";
import { isExpired } from "#domain/orderStatus";
import type { OrderRow } from "#db/schema/orders";
import { bestOrdersByNote, type BestListing, type BestOffer } from "../orders/bestPrices";
import type { NftsRepository } from "./repository";
import { singleFlight } from "./singleFlight";
import { termsOf, toNftRecord, type NftRecord, type WireContext } from "./wire";

/** What the marketplace reads of the signed orders (api/src/orders/repository.ts). */
export interface MarketplaceOrders {
  version(): Promise<string>;
  openListings(): Promise<OrderRow[]>;
  openOffers(): Promise<OrderRow[]>;
}

/** A marketplace card: the spec's record, its cheapest open signed listing and its best open offer. */
export type MarketplaceRecord = NftRecord & { signedListing: BestListing | null; bestOffer: BestOffer | null };

interface Entry {
  record: MarketplaceRecord;
  principal: bigint;
  price: bigint;
  rateBps: number;
  termMonths: number;
  /** Listing order: block then log index. */
  listedAt: bigint;
  tokenId: bigint;
  seller: string;
  haystack: string;
}

interface Snapshot {
  version: string;
  entries: Entry[];
}

const MAX_CACHED_ANSWERS = 1000;
/** The default shape of browseJson (data.nfts); any other shape is cached apart. */
export const identity = <T>(value: T) => value;

function matches(entry: Entry, q: MarketplaceQuery): boolean {
  if (q.minAmount !== undefined && entry.principal < q.minAmount) return false;
  if (q.maxAmount !== undefined && entry.principal > q.maxAmount) return false;
  if (q.amountBand && !q.amountBand.includes(amountBandOf(entry.principal))) return false;
  if (q.rateBand && !q.rateBand.includes(rateBandOf(entry.rateBps))) return false;
  if (q.collateral && (entry.record.collateral !== null) !== (q.collateral === "nft")) return false;
  if (q.search) {
    const needle = q.search.toLowerCase();
    // "#12" is note 12; "12" is any note whose number starts with 12; words search purpose and addresses.
    if (/^#\d+$/.test(needle)) return entry.tokenId.toString() === needle.slice(1);
    if (/^\d+$/.test(needle)) return entry.tokenId.toString().startsWith(needle);
    if (!entry.haystack.includes(needle)) return false;
  }
  return true;
}

const cmp = (a: bigint | number, b: bigint | number) => (a < b ? -1 : a > b ? 1 : 0);
const ORDER: Record<MarketplaceQuery["sort"], (a: Entry, b: Entry) => number> = {
  newest: (a, b) => cmp(b.listedAt, a.listedAt) || cmp(b.tokenId, a.tokenId),
  amount: (a, b) => cmp(b.principal, a.principal) || cmp(b.tokenId, a.tokenId),
  interestRate: (a, b) => cmp(a.rateBps, b.rateBps) || cmp(b.tokenId, a.tokenId),
  termMonths: (a, b) => cmp(a.termMonths, b.termMonths) || cmp(b.tokenId, a.tokenId),
};

/**
 * The marketplace's listings held in memory and answered from there. Exact, because the snapshot and every
 * cached answer belong to one mirror version (the indexer's cursor): when the indexer commits a block, the next
 * request sees a new version and rebuilds. One cheap cursor read per request is the price of exactness.
 */
export function createMarketplaceIndex(deps: { repo: NftsRepository; orders: MarketplaceOrders; wireContext: () => Promise<WireContext> }) {
  let snapshot: Snapshot | null = null;
  let building: Promise<Snapshot> | null = null;
  /** Answers as the JSON text of the whole envelope: a repeated query costs no serialisation. */
  const answers = new Map<string, string>();

  async function build(version: string): Promise<Snapshot> {
    const [rows, ctx, listings, offers] = await Promise.all([deps.repo.listed(), deps.wireContext(), deps.orders.openListings(), deps.orders.openOffers()]);
    // The chain's clock, as the rest of the snapshot's records (expiries, dirty prices, days past due) are judged by.
    const now = ctx.now;
    // Notes listed only by a signed order are on the market too.
    const onChain = new Set(rows.map((r) => r.token_id));
    const signedOnly = [...new Set(listings.filter((o) => !isExpired(o.expiry, now)).map((o) => o.tokenId!.toString()))].filter((id) => !onChain.has(id));
    const extra = (await deps.repo.notesByIds(signedOnly)).filter((r) => r.status === "active");
    const all = [...rows, ...extra];
    const best = bestOrdersByNote(
      all.map((r) => ({ tokenId: BigInt(r.token_id), owner: r.owner, holder: r.holder, terms: termsOf(r), totalRepaid: BigInt(r.total_repaid), feesPaidThrough: r.fees_paid_through })),
      [...listings, ...offers],
      now,
      ctx.fees,
    );
    // A note listed only by signature sorts as listed now (the mirror's head): the order has no block of its own.
    const headText = version.split(/[:|]/)[0];
    const head = /^\d+$/.test(headText) ? BigInt(headText) : 0n;
    const entries = all.flatMap((row): Entry[] => {
      const orders = best.get(row.token_id) ?? { listing: null, heldListing: null, offer: null };
      // A note whose borrower is late stays on the market with its listing, marked late by its servicing record; the
      // note's page and the buy route refuse to sell it until the loan is current again.
      const signed = orders.listing ?? orders.heldListing;
      if (row.listing_price === null && !signed) return [];
      const base = toNftRecord(row, ctx);
      const record: MarketplaceRecord = {
        ...base,
        ...(row.listing_price === null && signed ? { marketplaceStatus: "listed", listingPrice: signed.priceNow, listingDate: signed.createdAt, sellerAddress: signed.seller } : {}),
        signedListing: signed,
        bestOffer: orders.offer,
      };
      return [
        {
          record,
          principal: BigInt(row.principal),
          price: row.listing_price !== null ? BigInt(row.listing_price) : parseUsd(signed!.priceNow),
          rateBps: row.rate_bps,
          termMonths: row.term_months,
          listedAt: row.listing_block !== null ? BigInt(row.listing_block) * 1_000_000n + BigInt(row.listing_log_index ?? 0) : head * 1_000_000n + 999_999n,
          tokenId: BigInt(row.token_id),
          seller: row.listing_seller ?? signed?.seller ?? row.holder,
          haystack: [row.purpose ?? "", (row.purpose ?? "").replace(/_/g, " "), row.listing_seller ?? signed?.seller ?? "", row.borrower].join(" ").toLowerCase(),
        },
      ];
    });
    return { version, entries };
  }

  // Exact and cheap: a request waits for a cursor read that began after it arrived, shared by its burst.
  const readVersion = singleFlight(async () => {
    const [mirror, orders] = await Promise.all([deps.repo.mirrorVersion(), deps.orders.version()]);
    return `${mirror}|${orders}`;
  });
  const mirrorVersion = () => readVersion(null);

  async function current(): Promise<Snapshot> {
    const version = await mirrorVersion();
    if (snapshot?.version === version) return snapshot;
    if (!building) {
      building = build(version).finally(() => {
        building = null;
      });
    }
    const built = await building;
    if (!snapshot || snapshot.version !== built.version) {
      snapshot = built;
      answers.clear();
    }
    return built;
  }

  function answer(entries: Entry[], q: MarketplaceQuery) {
    const found = entries.filter((e) => matches(e, q)).sort(ORDER[q.sort]);
    const sellers = new Set(found.map((e) => e.seller));
    const totalValue = found.reduce((acc, e) => acc + e.price, 0n);
    const avgBps = found.length ? found.reduce((acc, e) => acc + e.rateBps, 0) / found.length : 0;
    const start = (q.page - 1) * q.limit;
    const nfts = found.slice(start, start + q.limit).map((e) => e.record);
    return {
      nfts,
      pagination: { page: q.page, limit: q.limit, total: found.length, totalLoans: found.length, totalPages: Math.max(1, Math.ceil(found.length / q.limit)) },
      stats: {
        totalListed: found.length,
        totalValue: formatUsdAmount(totalValue),
        activeLenders: sellers.size,
        avgRate: Math.round(avgBps) / 100,
      },
    };
  }

  return {
    /** One page of live listings, with the four tiles over everything the filters match. */
    async browse(q: MarketplaceQuery) {
      const snap = await current();
      return answer(snap.entries, q);
    },

    /** The same answer as the envelope's JSON text, cached per query for as long as the mirror does not move. */
    async browseJson(q: MarketplaceQuery, shape: (result: ReturnType<typeof answer>) => unknown = identity): Promise<string> {
      const snap = await current();
      const key = (shape === identity ? "nfts:" : "loans:") + JSON.stringify(q, (_k, v) => (typeof v === "bigint" ? v.toString() : v));
      const cached = snapshot === snap ? answers.get(key) : undefined;
      if (cached) return cached;
      const text = JSON.stringify({ success: true, message: "OK", data: shape(answer(snap.entries, q)) });
      if (snapshot === snap) {
        if (answers.size >= MAX_CACHED_ANSWERS) answers.delete(answers.keys().next().value!);
        answers.set(key, text);
      }
      return text;
    },
  };
}
