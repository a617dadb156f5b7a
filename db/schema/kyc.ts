import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

export const KYC_DOCUMENT_KINDS = ["idDocument", "proofOfAddress", "proofOfIncome"] as const;
export type KycDocumentKind = (typeof KYC_DOCUMENT_KINDS)[number];

/** One submission of documents and its review; the user's current status lives on users.kyc_status. */
export const kycSubmissions = pgTable(
  "kyc_submissions",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    idDocumentType: text("id_document_type").notNull(),
    status: text("status").notNull().default("pending"),
    reviewedBy: uuid("reviewed_by").references(() => users.id, { onDelete: "set null" }),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    notes: text("notes"),
    rejectionReason: text("rejection_reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("kyc_submissions_user_idx").on(t.userId, t.createdAt), check("kyc_submissions_status_check", sql`${t.status} in ('pending', 'approved', 'rejected')`)],
);

/** A stored file: only the generated name is kept, under $DATA_DIR/kyc/<userId>/. */
export const kycDocuments = pgTable(
  "kyc_documents",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    submissionId: uuid("submission_id")
      .notNull()
      .references(() => kycSubmissions.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    fileName: text("file_name").notNull(),
    mimeType: text("mime_type").notNull(),
    size: integer("size").notNull(),
    originalName: text("original_name"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("kyc_documents_user_idx").on(t.userId, t.createdAt), check("kyc_documents_kind_check", sql`${t.kind} in ('idDocument', 'proofOfAddress', 'proofOfIncome')`)],
);

export type KycSubmissionRow = typeof kycSubmissions.$inferSelect;
export type KycDocumentRow = typeof kycDocuments.$inferSelect;
