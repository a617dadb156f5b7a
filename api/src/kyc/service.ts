import { randomUUID } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileTypeFromBuffer } from "file-type";
import type { KycDocumentRow, KycSubmissionRow, UserRow } from "#db/schema";
import { SERVER_EVENTS } from "#domain/events";
import type { WireKyc, WireKycDocument, WireKycDocuments } from "#domain/wire/kyc";
import { KYC_FILE_FIELDS, KYC_MESSAGES, KYC_MIME_TYPES, MAX_KYC_FILE_BYTES, type KycDecisionInput } from "#domain/schemas/kyc";
import { badRequest, conflict, notFound } from "../http/errors";
import type { Notifier } from "../notifications/notifier";
import type { UsersRepository } from "../users/repository";
import type { KycRepository } from "./repository";
import { NOTIFICATION_TEXTS } from "../notifications/texts";
import { isUuid } from "#domain/uuid";

export const KYC_ANSWERS = {
  approved: "KYC approved",
  rejected: "KYC rejected",
  userNotFound: "User not found",
  documentNotFound: "Document not found",
} as const;

export const KYC_NOTIFY = {
  submitted: (who: string) => ({ title: "New KYC submission", message: `New KYC submission from ${who}` }),
} as const;

/** Only names this service generates are ever joined to a path. */
const GENERATED_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[a-z0-9]{2,5}$/;

/** The client's file name, for display only (never a path): control characters (NUL breaks PostgreSQL text) dropped, 255 at most. */
const displayName = (name: string | undefined) => name?.replace(/\p{Cc}/gu, "").slice(0, 255) || null;

export interface UploadedFile {
  fieldname: string;
  originalname: string;
  buffer: Buffer;
  size: number;
}

export const documentRoute = (documentId: string) => `/api/users/kyc/documents/${documentId}`;

function wireDocument(doc: KycDocumentRow): WireKycDocument {
  return { _id: doc.id, kind: doc.kind, url: documentRoute(doc.id), mimeType: doc.mimeType, size: doc.size, originalName: doc.originalName, uploadedAt: doc.createdAt.toISOString() };
}

/** The three document slots (kycDocuments), each the newest file of its kind. */
export function wireKycDocuments(docs: KycDocumentRow[]): WireKycDocuments {
  const slots: WireKycDocuments = { idDocument: null, proofOfAddress: null, proofOfIncome: null };
  for (const doc of docs) if (!slots[doc.kind]) slots[doc.kind] = wireDocument(doc);
  return slots;
}

export function wireKyc(user: UserRow, submission: KycSubmissionRow | undefined, docs: KycDocumentRow[]): WireKyc {
  return {
    status: user.kycStatus,
    idDocumentType: submission?.idDocumentType ?? null,
    submittedAt: submission?.createdAt.toISOString() ?? null,
    reviewedAt: submission?.reviewedAt?.toISOString() ?? null,
    rejectionReason: user.kycStatus === "rejected" ? (submission?.rejectionReason ?? null) : null,
    notes: submission?.notes ?? null,
    documents: wireKycDocuments(docs),
  };
}

export function createKycService(deps: { repo: KycRepository; users: UsersRepository; notifier: Notifier; dataDir: string }) {
  const { repo, users, notifier } = deps;
  const userDir = (userId: string) => {
    if (!isUuid(userId)) throw new Error("not a user id");
    return join(deps.dataDir, "kyc", userId);
  };

  async function kycOf(user: UserRow) {
    const submission = await repo.latestSubmission(user.id);
    const docs = submission ? await repo.documents(submission.id) : [];
    return wireKyc(user, submission, docs);
  }

  return {
    kycOf,

    /** Each file judged by its bytes, stored privately under a generated name; admins hear of each new submission. */
    async upload(user: UserRow, idDocumentType: string, files: UploadedFile[]) {
      if (user.kycStatus === "approved") throw badRequest(KYC_MESSAGES.alreadyApproved);
      const chosen = files.filter((f) => (KYC_FILE_FIELDS as readonly string[]).includes(f.fieldname) && f.size > 0);
      if (!chosen.length) throw badRequest(KYC_MESSAGES.noDocuments);
      const judged = [];
      for (const file of chosen) {
        if (file.size > MAX_KYC_FILE_BYTES) throw badRequest(KYC_MESSAGES.fileSize);
        const type = await fileTypeFromBuffer(file.buffer);
        if (!type || !(KYC_MIME_TYPES as readonly string[]).includes(type.mime)) throw badRequest(KYC_MESSAGES.fileType);
        judged.push({ file, type });
      }
      const dir = userDir(user.id);
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const stored = [];
      for (const { file, type } of judged) {
        const fileName = `${randomUUID()}.${type.ext === "jpeg" ? "jpg" : type.ext}`;
        await writeFile(join(dir, fileName), file.buffer, { flag: "wx", mode: 0o600 });
        stored.push({ kind: file.fieldname, fileName, mimeType: type.mime, size: file.size, originalName: displayName(file.originalname) });
      }
      const { user: updated, isNew } = await repo.submit(user, idDocumentType, stored);
      if (isNew) {
        const text = KYC_NOTIFY.submitted(`${user.firstName} ${user.lastName}`.trim() || user.email || user.id);
        await notifier.notifyAdmins(
          { type: "kyc_submission", ...text, link: `/admin/users?user=${user.id}` },
          { name: SERVER_EVENTS.adminNotification, payload: { type: "kyc_submission", message: text.message } },
        );
      }
      return { user: updated, kyc: await kycOf(updated) };
    },

    /** The file of a document, for its owner or an admin; anyone else is told it does not exist. */
    async download(requester: UserRow, documentId: string): Promise<{ doc: KycDocumentRow; content: Buffer }> {
      const doc = await repo.document(documentId);
      if (!doc || (doc.userId !== requester.id && requester.role !== "admin") || !GENERATED_NAME.test(doc.fileName)) {
        throw notFound(KYC_ANSWERS.documentNotFound);
      }
      const content = await readFile(join(userDir(doc.userId), doc.fileName)).catch(() => {
        throw notFound(KYC_ANSWERS.documentNotFound);
      });
      return { doc, content };
    },

    async decide(admin: UserRow, userId: string, input: KycDecisionInput) {
      const target = await users.findById(userId);
      if (!target) throw notFound(KYC_ANSWERS.userNotFound);
      const approve = input.action === "approve";
      const reason = approve ? null : (input.rejectionReason ?? input.notes ?? null);
      const result = await repo.decide(userId, { status: approve ? "approved" : "rejected", reviewerId: admin.id, notes: input.notes ?? null, rejectionReason: reason });
      if (!result) throw conflict(KYC_MESSAGES.notPending);
      await notifier.notifyUser(userId, approve ? NOTIFICATION_TEXTS.kycApproved() : NOTIFICATION_TEXTS.kycRejected(reason), {
        name: SERVER_EVENTS.kycStatus,
        payload: { status: result.user.kycStatus, rejectionReason: reason },
      });
      return { user: result.user, kyc: await kycOf(result.user), message: approve ? KYC_ANSWERS.approved : KYC_ANSWERS.rejected };
    },
  };
}
export type KycService = ReturnType<typeof createKycService>;
