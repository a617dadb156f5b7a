import { sql } from "drizzle-orm";
import { boolean, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

/** One row per recipient; texts are the spec's, amounts formatted by the server. */
export const notifications = pgTable(
  "notifications",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    title: text("title").notNull(),
    message: text("message").notNull(),
    link: text("link"),
    read: boolean("read").notNull().default(false),
    /**
     * What the notice is about, when it can go stale: the signed offer an "Offer received" told of, or the loan
     * request an admin was asked to review. A notice whose subject has resolved is listed as done (see
     * docs/decisions.md "Stale notices are done"); nothing is written when the subject resolves.
     */
    aboutOrder: text("about_order"),
    aboutLoan: uuid("about_loan"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("notifications_user_created_idx").on(t.userId, t.createdAt)],
);

export type NotificationRow = typeof notifications.$inferSelect;
