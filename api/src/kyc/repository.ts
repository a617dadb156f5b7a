import { and, desc, eq } from "drizzle-orm";
import type { Db } from "#db/connect";
import { kycDocuments, kycSubmissions, users, type KycDocumentRow, type KycSubmissionRow, type UserRow } from "#db/schema";
import type { KycStatus } from "#domain/statuses";
import { isUuid } from "#domain/uuid";

export function createKycRepository(db: Db) {
  return {
    async latestSubmission(userId: string): Promise<KycSubmissionRow | undefined> {
      const [row] = await db.select().from(kycSubmissions).where(eq(kycSubmissions.userId, userId)).orderBy(desc(kycSubmissions.createdAt)).limit(1);
      return row;
    },
    async documents(submissionId: string): Promise<KycDocumentRow[]> {
      return db.select().from(kycDocuments).where(eq(kycDocuments.submissionId, submissionId)).orderBy(desc(kycDocuments.createdAt));
    },
    async document(id: string): Promise<KycDocumentRow | undefined> {
      if (!isUuid(id)) return undefined;
      const [row] = await db.select().from(kycDocuments).where(eq(kycDocuments.id, id)).limit(1);
      return row;
    },
    /** A new submission (or more files for the pending one) and the user's status, in one transaction. */
    async submit(
      user: UserRow,
      idDocumentType: string,
      files: { kind: string; fileName: string; mimeType: string; size: number; originalName: string | null }[],
    ): Promise<{ user: UserRow; submission: KycSubmissionRow; isNew: boolean }> {
      return db.transaction(async (tx) => {
        const [pending] = await tx
          .select()
          .from(kycSubmissions)
          .where(and(eq(kycSubmissions.userId, user.id), eq(kycSubmissions.status, "pending")))
          .orderBy(desc(kycSubmissions.createdAt))
          .limit(1);
        const submission = pending
          ? (await tx.update(kycSubmissions).set({ idDocumentType }).where(eq(kycSubmissions.id, pending.id)).returning())[0]
          : (await tx.insert(kycSubmissions).values({ userId: user.id, idDocumentType }).returning())[0];
        await tx.insert(kycDocuments).values(files.map((f) => ({ ...f, submissionId: submission.id, userId: user.id })));
        const [updated] = await tx.update(users).set({ kycStatus: "pending", updatedAt: new Date() }).where(eq(users.id, user.id)).returning();
        return { user: updated, submission, isNew: !pending };
      });
    },
    /** Decides the pending submission; undefined when the user has none (a decision already made, or nothing sent). */
    async decide(
      userId: string,
      decision: { status: Exclude<KycStatus, "none" | "pending">; reviewerId: string; notes: string | null; rejectionReason: string | null },
    ): Promise<{ user: UserRow; submission: KycSubmissionRow } | undefined> {
      return db.transaction(async (tx) => {
        const [submission] = await tx
          .update(kycSubmissions)
          .set({ status: decision.status, reviewedBy: decision.reviewerId, reviewedAt: new Date(), notes: decision.notes, rejectionReason: decision.rejectionReason })
          .where(and(eq(kycSubmissions.userId, userId), eq(kycSubmissions.status, "pending")))
          .returning();
        if (!submission) return undefined;
        const [user] = await tx.update(users).set({ kycStatus: decision.status, updatedAt: new Date() }).where(eq(users.id, userId)).returning();
        return { user, submission };
      });
    },
  };
}
export type KycRepository = ReturnType<typeof createKycRepository>;
