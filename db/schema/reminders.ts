import { sql } from "drizzle-orm";
import { index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { loans } from "./loans";
import { notifications } from "./notifications";
import { users } from "./users";

/**
 * What a servicing reminder is about; the holder's kinds are the borrower's transitions told to the note's holder.
 * "defaulted" and "holder_defaulted" are rows of defaults told before the loan's status notice became the one that
 * tells them: kept so those rows still read.
 */
export const REMINDER_KINDS = ["due_soon", "missed", "late_fee", "cured", "default_soon", "defaulted", "holder_late", "holder_cured", "holder_defaulted"] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];

/**
 * One row per reminder ever decided, sent or not (a muted recipient's row has no notification): the unique key is
 * what makes a reminder go out once across restarts and across API processes, since the notification is inserted
 * in the same transaction as the row and only when the row is new.
 */
export const servicingReminders = pgTable(
  "servicing_reminders",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    loanId: uuid("loan_id")
      .notNull()
      .references(() => loans.id, { onDelete: "cascade" }),
    kind: text("kind").$type<ReminderKind>().notNull(),
    /** The installment it is about (its index from 1); 0 for a reminder about the whole loan. */
    installment: integer("installment").notNull(),
    recipientId: uuid("recipient_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Null when the recipient had muted reminders: the reminder counts as given and is never sent later. */
    notificationId: uuid("notification_id").references(() => notifications.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("servicing_reminders_key").on(t.loanId, t.kind, t.installment, t.recipientId), index("servicing_reminders_recipient_idx").on(t.recipientId)],
);

/**
 * The servicing state each loan was last seen in by the reminder job, so going late and cure are transitions read
 * from the database, never from a process's memory. Its row is locked while a tick decides the loan's reminders.
 */
export const servicingStates = pgTable(
  "servicing_states",
  {
    loanId: uuid("loan_id")
      .notNull()
      .references(() => loans.id, { onDelete: "cascade" }),
    daysPastDue: integer("days_past_due").notNull().default(0),
    /** The installment whose miss began the loan's current late spell (null while current): the cure's key. */
    lateInstallment: integer("late_installment"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.loanId] })],
);

export type ServicingReminderRow = typeof servicingReminders.$inferSelect;
