import { z } from "zod";

/**
 * A notification as GET /notifications answers it (api/src/notifications/wire.ts is typed by it); `isRead` beside
 * `read` is the name the spec's admin bell reads. The type stays a string: rows written before a type was added
 * are still shown.
 */
export const wireNotificationSchema = z.object({
  _id: z.string(),
  type: z.string(),
  title: z.string(),
  message: z.string(),
  link: z.string().nullable(),
  read: z.boolean(),
  isRead: z.boolean(),
  /** What it is about has resolved (an offer accepted or gone, a request decided): shown as done, never counted unread. */
  done: z.boolean(),
  createdAt: z.string(),
});
export type WireNotification = z.infer<typeof wireNotificationSchema>;

/** GET /notifications: the newest rows, how many are unread and not done, and the page. */
export const wireNotificationListSchema = z.object({
  notifications: z.array(wireNotificationSchema),
  unreadCount: z.number(),
  pagination: z.object({ page: z.number(), limit: z.number(), total: z.number(), totalPages: z.number() }).optional(),
});
export type WireNotificationList = z.infer<typeof wireNotificationListSchema>;
