import type { ChainOutboxRow } from "../../../db/schema";
import type { NotificationContent } from "../notifications/notifier";
import { NOTIFICATION_TEXTS } from "../notifications/texts";

/**
 * Which stored notifications an indexer outbox row becomes (spec 02 §8 texts). The indexer addresses each row
 * to the user rooms of the accounts involved (resolved from their verified wallets when the row is written):
 * funded → the borrower; repaid → holder, borrower and payer; sold → buyer and seller. A new listing is news for
 * every investor except the seller.
 */
export type Recipients = { kind: "rooms"; userIds: string[]; admins: boolean } | { kind: "investors"; exceptUserIds: string[] };

export interface PlannedNotification {
  content: NotificationContent;
  recipients: Recipients;
}

const USER_ROOM = /^user:([0-9a-f-]{36})$/i;

export function userIdsOf(rooms: string[]): string[] {
  return rooms.flatMap((room) => USER_ROOM.exec(room)?.[1] ?? []);
}

export function notificationsForOutbox(row: Pick<ChainOutboxRow, "event" | "rooms" | "payload">): PlannedNotification[] {
  const payload = row.payload as { type?: string; status?: string; amount?: string | null; nftId?: string; tokenId?: string };
  const tokenId = payload.nftId ?? payload.tokenId;
  if (!tokenId) return [];
  const userIds = userIdsOf(row.rooms);
  const toRooms = (content: NotificationContent): PlannedNotification[] => [{ content, recipients: { kind: "rooms", userIds, admins: false } }];
  const amount = payload.amount ?? null;

  if (row.event === "loan:funded" && amount) return toRooms(NOTIFICATION_TEXTS.loanFunded(amount, tokenId));
  // Completion and default are told by the loan watcher (api/src/jobs), which knows the loan behind the note.
  if (row.event === "marketplace:update" && amount) {
    if (payload.type === "listed") return [{ content: NOTIFICATION_TEXTS.newListing(tokenId, amount), recipients: { kind: "investors", exceptUserIds: userIds } }];
    if (payload.type === "repaid") return toRooms(NOTIFICATION_TEXTS.repayment(tokenId, amount));
    if (payload.type === "sold") return toRooms(NOTIFICATION_TEXTS.noteSold(tokenId, amount));
  }
  return [];
}
