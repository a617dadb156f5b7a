import { sql } from "drizzle-orm";
import { bigserial, check, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

/**
 * The chat assistant's history, one row per message and per user.
 * `seq` orders a question before its answer even when both carry the same timestamp.
 */
export const chatMessages = pgTable(
  "chat_messages",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    sender: text("sender").$type<"user" | "bot">().notNull(),
    content: text("content").notNull(),
    /** For bot messages: "knowledge" (the local assistant) or "llm" (the configured model). */
    source: text("source").$type<"knowledge" | "llm">(),
    /** The configured model's name when it answered. */
    model: text("model"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("chat_messages_user_seq_idx").on(t.userId, t.seq),
    check("chat_messages_sender_check", sql`${t.sender} in ('user', 'bot')`),
    check("chat_messages_source_check", sql`${t.source} is null or ${t.source} in ('knowledge', 'llm')`),
  ],
);

export type ChatMessageRow = typeof chatMessages.$inferSelect;
