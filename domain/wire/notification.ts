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
  createdAt: z.string(),
});
export type WireNotification = z.infer<typeof wireNotificationSchema>;

/** GET /notifications: the newest rows and how many are unread. */
export const wireNotificationListSchema = z.object({ notifications: z.array(wireNotificationSchema), unreadCount: z.number() });
export type WireNotificationList = z.infer<typeof wireNotificationListSchema>;
