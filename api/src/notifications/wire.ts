import type { NotificationRow } from "#db/schema";
import type { ServerEventPayloads } from "#domain/events";
import type { WireNotification } from "#domain/wire/notification";
import type { ListedNotification } from "./repository";

/** The `notification:new` payload. */
export const livePayload = (row: NotificationRow): ServerEventPayloads["notification:new"] => ({
  _id: row.id,
  type: row.type,
  title: row.title,
  message: row.message,
  link: row.link,
});

/** A notification as the REST routes answer it (domain/wire/notification.ts). */
export const toWire = (row: ListedNotification): WireNotification => ({
  ...livePayload(row),
  read: row.read,
  isRead: row.read,
  done: row.done,
  createdAt: row.createdAt.toISOString(),
});
