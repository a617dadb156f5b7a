import type { Db } from "#db/connect";
import type { ServerEventName, ServerEventPayloads } from "#domain/events";
import type { NotificationType } from "#domain/statuses";

/** A stored notification's content: texts are the spec's, with amounts already formatted by the server. */
export interface NotificationContent {
  type: NotificationType;
  title: string;
  message: string;
  link?: string | null;
  /** What it is about, for a notice that goes stale when its subject resolves (db/schema/notifications.ts). */
  about?: { orderHash?: string; loanId?: string };
}

/** A socket.io event to push beside a notification, or on its own. */
export interface LiveEvent<Name extends ServerEventName = ServerEventName> {
  name: Name;
  payload: ServerEventPayloads[Name];
}

/**
 * The one way the API tells people something (notifications are rows per
 * recipient, pushed live). Every service that decides something calls it; nothing else emits to sockets.
 */
export interface Notifier {
  /** Stores one row for the user and pushes `notification:new` (and `event`, if given) to room user:<id>. */
  notifyUser(userId: string, content: NotificationContent, event?: LiveEvent): Promise<void>;
  /**
   * Stores one row for the user in the caller's transaction and answers what pushes it, to call once that
   * transaction has committed: a notice decided together with other rows (a reminder's key) is pushed only if it
   * was stored.
   */
  storeForUser(tx: Db, userId: string, content: NotificationContent): Promise<{ id: string; push(): void }>;
  /** Stores one row per admin and pushes `notification:new` (and `event`) to the admins room. */
  notifyAdmins(content: NotificationContent, event?: LiveEvent): Promise<void>;
  /** Pushes an event that stores nothing (e.g. marketplace:update to the marketplace room). */
  publish(room: string, event: LiveEvent): void;
}
