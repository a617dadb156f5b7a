import type { NotificationRow } from "#db/schema";
import type { ServerEventPayloads } from "#domain/events";

/** The `notification:new` payload. */
export const livePayload = (row: NotificationRow): ServerEventPayloads["notification:new"] => ({
  _id: row.id,
  type: row.type,
  title: row.title,
  message: row.message,
  link: row.link,
});

/** A notification as the REST routes answer it; `isRead` is the name the spec's admin bell reads. */
export const toWire = (row: NotificationRow) => ({
  ...livePayload(row),
  read: row.read,
  isRead: row.read,
  createdAt: row.createdAt.toISOString(),
});
