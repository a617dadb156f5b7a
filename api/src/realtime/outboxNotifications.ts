import type { ChainOutboxRow } from "#db/schema";
import type { CollateralUpdatePayload, LoanRefinancedPayload } from "#domain/events";
import type { ListingLapseReason } from "#domain/statuses";
import type { NotificationContent } from "../notifications/notifier";
import { NOTIFICATION_TEXTS } from "../notifications/texts";

/**
 * Which stored notifications an indexer outbox row becomes, and with which texts. The indexer addresses each row
 * to the user rooms of the accounts involved (resolved from their verified wallets when the row is written):
 * funded → the borrower; repaid → holder, borrower and payer; sold → buyer and seller; a loan completed → its
 * borrower; defaulted → borrower, holder and admins; a listing that lapsed → its seller (never the treasury, whose
 * wallet is no account's). A new listing is news for every investor except the seller and the note's borrower. A signed
 * order's fill is news for its signer only (the API's book knows who signed it). A pledged NFT's move (collateral:update)
 * comes as the borrower's row and, apart, the holder's (`audience: "holder"`): see collateralNotices below.
 */
export type Recipients =
  | { kind: "rooms"; userIds: string[]; admins: boolean }
  /**
   * The account that signed the order of this hash, as the API's book records it (orders.signer): a fill's log names
   * seller and buyer, not which of them signed. Nobody when the book never stored the order. `content` is the
   * listing's text; `offerContent` an offer's (either kind).
   */
  | { kind: "orderSigner"; hash: string; offerContent: NotificationContent }
  /** Nor the borrower of the note's own loan: it is not news to her, and she would be buying her own debt. */
  | { kind: "investors"; exceptUserIds: string[]; exceptBorrowerOf: string };

export interface PlannedNotification {
  content: NotificationContent;
  recipients: Recipients;
  /** A live event for the admins room beside the stored rows (admin:notification of a system alert). */
  adminEvent?: { name: "admin:notification"; payload: Record<string, unknown> };
}

const USER_ROOM = /^user:([0-9a-f-]{36})$/i;

export function userIdsOf(rooms: string[]): string[] {
  return rooms.flatMap((room) => USER_ROOM.exec(room)?.[1] ?? []);
}

export function notificationsForOutbox(row: Pick<ChainOutboxRow, "event" | "rooms" | "payload">): PlannedNotification[] {
  const payload = row.payload as {
    type?: string;
    status?: string;
    amount?: string | null;
    nftId?: string;
    tokenId?: string;
    loanId?: string;
    txHash?: string;
    lapsed?: ListingLapseReason;
    orderHash?: string;
    hash?: string | null;
  };
  const tokenId = payload.nftId ?? payload.tokenId;
  if (!tokenId) return [];
  const userIds = userIdsOf(row.rooms);
  const toRooms = (content: NotificationContent): PlannedNotification[] => [{ content, recipients: { kind: "rooms", userIds, admins: false } }];
  const amount = payload.amount ?? null;

  if (row.event === "collateral:update") return collateralNotices(row, toRooms);
  if (row.event === "loan:refinanced") return refinanceNotices(row, toRooms);

  if (row.event === "loan:funded" && amount) return toRooms(NOTIFICATION_TEXTS.loanFunded(amount, tokenId));
  // The indexer writes these only when the off-chain loan followed its note (indexer/loans.ts): the row with the
  // loan's id is the borrower's (and, for a default, the admins'); one without it is the note's holder's.
  if (row.event === "loan:status" && payload.status === "completed" && payload.loanId) return toRooms(NOTIFICATION_TEXTS.loanCompleted(tokenId, payload.loanId));
  if (row.event === "loan:status" && payload.status === "defaulted" && amount) {
    const loanId = payload.loanId;
    if (!loanId) return toRooms(NOTIFICATION_TEXTS.loanDefaulted(tokenId, amount, "holder"));
    const planned = toRooms(NOTIFICATION_TEXTS.loanDefaulted(tokenId, amount, { loanId }));
    if (!row.rooms.includes("admins")) return planned;
    const alert = NOTIFICATION_TEXTS.loanDefaulted(tokenId, amount, { loanId, admin: true });
    const event = { name: "admin:notification" as const, payload: { type: alert.type, message: alert.message, loanId, tokenId, txHash: payload.txHash } };
    return [...planned, { content: alert, recipients: { kind: "rooms", userIds: [], admins: true }, adminEvent: event }];
  }
  if (row.event === "marketplace:update" && payload.type === "unlisted" && payload.lapsed) {
    const notice = NOTIFICATION_TEXTS.listingLapsed(tokenId, payload.lapsed, amount);
    return notice ? toRooms(notice) : [];
  }
  // A signed order's fill: its signer hears of it from the book's row below; the other side sent the transaction.
  if (row.event === "marketplace:update" && payload.type === "sold" && payload.orderHash) return [];
  if (row.event === "orderbook:update" && payload.status === "filled" && payload.hash && amount) {
    const recipients = { kind: "orderSigner" as const, hash: payload.hash, offerContent: NOTIFICATION_TEXTS.orderFilled("offer", tokenId, amount) };
    return [{ content: NOTIFICATION_TEXTS.orderFilled("listing", tokenId, amount), recipients }];
  }
  if (row.event === "marketplace:update" && amount) {
    if (payload.type === "listed") return [{ content: NOTIFICATION_TEXTS.newListing(tokenId, amount), recipients: { kind: "investors", exceptUserIds: userIds, exceptBorrowerOf: tokenId } }];
    if (payload.type === "repaid") return toRooms(NOTIFICATION_TEXTS.repayment(tokenId, amount));
    if (payload.type === "sold") return toRooms(NOTIFICATION_TEXTS.noteSold(tokenId, amount));
  }
  return [];
}

/** A refinance's row per side (indexer/handlers/loanNote.ts), each in its own words. */
function refinanceNotices(row: Pick<ChainOutboxRow, "payload">, toRooms: (content: NotificationContent) => PlannedNotification[]): PlannedNotification[] {
  const payload = row.payload as Partial<LoanRefinancedPayload>;
  if (!payload.tokenId || !payload.newTokenId || !payload.principal || !payload.payoff || !payload.audience) return [];
  const { tokenId, newTokenId, principal, payoff, loanId } = payload;
  return toRooms(NOTIFICATION_TEXTS.loanRefinanced(payload.audience, { tokenId, newTokenId, principal, payoff, loanId }));
}

/**
 * A pledged NFT's move (indexer/handlers/collateral.ts). The borrower's row (rooms: their account, admins,
 * marketplace; `loanId` when a loan follows the note) gets the borrower's words for every state, and for a claim the
 * admins' too; the row marked `audience: "holder"` (the note's holder, a claim's receiver) is stored only for a claim:
 * a lock, a return or a failed return is the borrower's business, the holder's page just refreshes.
 */
function collateralNotices(row: Pick<ChainOutboxRow, "rooms" | "payload">, toRooms: (content: NotificationContent) => PlannedNotification[]): PlannedNotification[] {
  const payload = row.payload as Partial<CollateralUpdatePayload>;
  if (!payload.tokenId || !payload.collection || !payload.collateralId || !payload.state) return [];
  const piece = { tokenId: payload.tokenId, collection: payload.collection, collateralId: payload.collateralId, collectionName: payload.collectionName, loanId: payload.loanId };
  const to = payload.to ?? "";
  // A refinance's re-recording: the refinance's own notice tells of it.
  if (payload.movedFrom) return [];
  if (payload.audience === "holder") return payload.state === "claimed" ? toRooms(NOTIFICATION_TEXTS.collateralClaimed(piece, to, "holder")) : [];
  switch (payload.state) {
    case "locked":
      return toRooms(NOTIFICATION_TEXTS.collateralLocked(piece));
    case "returned":
      return toRooms(NOTIFICATION_TEXTS.collateralReturned(piece, to));
    case "returnFailed":
      return toRooms(NOTIFICATION_TEXTS.collateralReturnFailed(piece));
    case "claimed": {
      const planned = toRooms(NOTIFICATION_TEXTS.collateralClaimed(piece, to, "borrower"));
      if (!row.rooms.includes("admins")) return planned;
      return [...planned, { content: NOTIFICATION_TEXTS.collateralClaimed(piece, to, "admin"), recipients: { kind: "rooms", userIds: [], admins: true } }];
    }
    default:
      return [];
  }
}
