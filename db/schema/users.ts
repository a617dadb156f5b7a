import { sql } from "drizzle-orm";
import { boolean, check, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import type { KycStatus, Role } from "#domain/statuses";

/** Profile address: an object from registration, or the free text of the profile screen. */
export type StoredAddress = string | { street?: string; city?: string; state?: string; zipCode?: string; country?: string };

export const users = pgTable(
  "users",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    /** Null for wallet users who never set one. Unique ignoring case (index below). */
    email: text("email"),
    /** argon2id; null for wallet-only accounts, which cannot sign in with a password. */
    passwordHash: text("password_hash"),
    role: text("role").$type<Role>().notNull().default("user"),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    phone: text("phone"),
    address: jsonb("address").$type<StoredAddress>(),
    profilePicture: text("profile_picture"),
    isWalletUser: boolean("is_wallet_user").notNull().default(false),
    /** Verified by a SIWE signature only; lowercase; one account per wallet. */
    walletAddress: text("wallet_address"),
    /** The address typed at registration: prefills linking, never verified, never unique. */
    walletHint: text("wallet_hint"),
    kycStatus: text("kyc_status").$type<KycStatus>().notNull().default("none"),
    /** The user asked for no servicing reminders (due dates, missed payments, cures, defaults); other notices still come. */
    remindersMuted: boolean("reminders_muted").notNull().default(false),
    lastLoginAt: timestamp("last_login_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("users_email_lower_unique").on(sql`lower(${t.email})`),
    uniqueIndex("users_wallet_address_unique").on(t.walletAddress),
    index("users_created_at_idx").on(t.createdAt),
    check("users_role_check", sql`${t.role} in ('user', 'admin')`),
    check("users_kyc_status_check", sql`${t.kycStatus} in ('none', 'pending', 'approved', 'rejected')`),
    check("users_wallet_lowercase_check", sql`${t.walletAddress} = lower(${t.walletAddress})`),
  ],
);

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
