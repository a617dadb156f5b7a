import { and, eq, sql } from "drizzle-orm";
import type { Db } from "#db/connect";
import { chainNotes, users, type OrderRow } from "#db/schema";
import { ROOMS, SERVER_EVENTS } from "#domain/events";
import { formatUsdAmount } from "#domain/money";
import { parPrice } from "#domain/orders";
import { maturity, type LoanTerms } from "#domain/schedule";
import { pastDue, type PayoffSplit } from "#domain/servicing";
import { parSplit, type FeeParams } from "#domain/servicingRecord";
import type { NotificationsRepository } from "../notifications/repository";
import type { NotificationContent, Notifier } from "../notifications/notifier";
import { NOTIFICATION_TEXTS } from "../notifications/texts";
import type { KeyValueStore } from "../kv/store";

/** A note as the mirror has it, with the account of its holder's verified wallet (if any). */
interface HeldNote {
  tokenId: bigint;
  terms: LoanTerms;
  repaid: bigint;
  feesPaidThrough: number;
  holder: string;
  holderId: string | null;
}

/** What an order pays for a note that `split` settles today: its fixed price, or its dirty par price (capped). */
export function priceToday(order: Pick<OrderRow, "price" | "parBps" | "cap">, split: PayoffSplit): bigint {
  if (order.parBps === 0) return order.price;
  const par = parPrice(split, BigInt(order.parBps));
  return order.cap !== null && order.cap < par ? order.cap : par;
}

const inRange = (value: bigint, min: bigint | number | null, max: bigint | number | null) => (min === null || value >= BigInt(min)) && (max === null || value <= BigInt(max));

/** How long one offerer's offers on one note make a single "Offer received" for its holder. */
export const OFFER_NOTICE_WINDOW_MS = 24 * 60 * 60_000;

/**
 * What the API tells people when it stores a signed order: `orderbook:update` { tokenId, hash, status } and
 * `marketplace:update` to the marketplace room (the app's note page and marketplace listen there) and to the signer;
 * the holder of the note an offer names, or of each active note a matching offer fits today, a stored "Offer received";
 * every investor but the seller and the note's borrower a "New NFT loan" for a listing, as an on-chain listing's outbox
 * row did. The chain's own changes (fills, cancellations, counters) are the indexer's outbox rows. "Offer received" is
 * told once a day per holder, offerer and note (counted in the key-value store, so every API process shares it).
 */
/** `fees` answers the deployment's late-fee terms: a par price includes the fees a note owes. */
export function createOrderAnnouncer(deps: { db: Db; kv: KeyValueStore; chainId: number; notifier: Notifier; notifications: NotificationsRepository; fees: () => Promise<FeeParams> }) {
  const { db, kv, chainId, notifier, notifications } = deps;

  async function notes(where: ReturnType<typeof and>): Promise<HeldNote[]> {
    const rows = await db
      .select({ note: chainNotes, holderId: users.id })
      .from(chainNotes)
      .leftJoin(users, eq(users.walletAddress, chainNotes.holder))
      .where(and(eq(chainNotes.chainId, chainId), eq(chainNotes.status, "active"), eq(chainNotes.burned, false), where));
    return rows.map(({ note, holderId }) => ({
      tokenId: note.tokenId,
      terms: { principal: note.principal, rateBps: BigInt(note.rateBps), termMonths: BigInt(note.termMonths), start: BigInt(note.startTime) },
      repaid: note.totalRepaid,
      feesPaidThrough: note.feesPaidThrough,
      holder: note.holder,
      holderId,
    }));
  }

  async function signerId(signer: string): Promise<string | null> {
    const [row] = await db.select({ id: users.id }).from(users).where(eq(users.walletAddress, signer.toLowerCase())).limit(1);
    return row?.id ?? null;
  }

  /** Tells `holderId` of `offerer`'s offer on `tokenId`, unless an offer of theirs on it was told in the last day. */
  async function offerReceived(holderId: string, offerer: string, tokenId: string, content: NotificationContent): Promise<void> {
    const { count } = await kv.increment(`notice:offer-received:${holderId}:${offerer}:${tokenId}`, OFFER_NOTICE_WINDOW_MS);
    if (count === 1) await notifier.notifyUser(holderId, content);
  }

  /**
   * Active notes inside a matching offer's ranges now (rate, seconds to maturity, outstanding principal, days past
   * due), as the contract checks them, whose par price fits what is left of the budget (a dearer note could not be
   * sold into it).
   */
  async function matchingNotes(order: OrderRow, now: bigint): Promise<{ note: HeldNote; split: PayoffSplit }[]> {
    const left = (order.budget ?? 0n) - order.filled;
    const rated = await notes(
      and(order.minRateBps === null ? undefined : sql`${chainNotes.rateBps} >= ${order.minRateBps}`, order.maxRateBps === null ? undefined : sql`${chainNotes.rateBps} <= ${order.maxRateBps}`),
    );
    const fees = await deps.fees();
    return rated.flatMap((note) => {
      const due = maturity(note.terms);
      const termLeft = due > now ? due - now : 0n;
      const split = parSplit(note, now, fees);
      const late = BigInt(pastDue(note.terms, note.repaid, now).daysPastDue) > order.maxDaysPastDue;
      const fits = !late && inRange(termLeft, order.minTermLeft, order.maxTermLeft) && inRange(split.principal, order.minOutstanding, order.maxOutstanding);
      const affordable = priceToday(order, split) <= left;
      return fits && affordable && note.holder !== order.signer ? [{ note, split }] : [];
    });
  }

  return {
    /** Called once the order is stored (never for a refused one); a failure here is the caller's to log, not to undo the order. */
    async stored(order: OrderRow, now = BigInt(Math.floor(Date.now() / 1000))): Promise<void> {
      const tokenId = order.tokenId === null ? null : order.tokenId.toString();
      const [note] = order.tokenId === null ? [] : await notes(eq(chainNotes.tokenId, order.tokenId));
      const price = note ? priceToday(order, parSplit(note, now, await deps.fees())) : order.parBps === 0 ? order.price : null;
      const amount = price === null ? null : formatUsdAmount(price);
      const signer = await signerId(order.signer);
      const rooms = [ROOMS.marketplace, ...(signer ? [ROOMS.user(signer)] : [])];
      const book = { tokenId, hash: order.hash, status: order.status, signer: order.signer, ...(amount ? { amount } : {}) };
      for (const room of rooms) notifier.publish(room, { name: SERVER_EVENTS.orderbookUpdate, payload: book });
      if (tokenId) {
        const update = { type: order.kind === "listing" ? ("listed" as const) : ("offer" as const), amount, nftId: tokenId, tokenId, orderHash: order.hash };
        for (const room of rooms) notifier.publish(room, { name: SERVER_EVENTS.marketplaceUpdate, payload: update });
      }
      if (order.status !== "open") return;

      if (order.kind === "listing" && tokenId && amount) {
        const except = new Set([signer, await notifications.borrowerOfNote(tokenId)]);
        const investors = (await notifications.investorIds()).filter((id) => !except.has(id));
        const content = NOTIFICATION_TEXTS.newListing(tokenId, amount);
        for (const id of investors) await notifier.notifyUser(id, content);
        return;
      }
      if (order.kind === "offer" && note?.holderId && price !== null && note.holderId !== signer) {
        await offerReceived(note.holderId, order.signer, tokenId!, { ...NOTIFICATION_TEXTS.offerReceived(tokenId!, price), about: { orderHash: order.hash } });
        return;
      }
      if (order.kind === "matchingOffer") {
        for (const { note: fit, split } of await matchingNotes(order, now)) {
          if (!fit.holderId || fit.holderId === signer) continue;
          const id = fit.tokenId.toString();
          await offerReceived(fit.holderId, order.signer, id, { ...NOTIFICATION_TEXTS.offerReceived(id, priceToday(order, split), true), about: { orderHash: order.hash } });
        }
      }
    },
  };
}
export type OrderAnnouncer = ReturnType<typeof createOrderAnnouncer>;
