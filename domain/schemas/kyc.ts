import { z } from "zod";
import { SHARED_MESSAGES } from "./sharedMessages";

export const KYC_MESSAGES = {
  noDocuments: "Please upload at least one document",
  documentType: "Please select a valid ID document type",
  fileType: "Documents must be images or PDF files",
  fileSize: "Each document must be 10MB or smaller",
  alreadyApproved: "Your KYC is already approved",
  underReview: "Your documents are already under review",
  submitted: "KYC documents submitted successfully",
  action: "Action must be approve or reject",
  notPending: "Only a pending KYC submission can be decided",
  rejectionReason: SHARED_MESSAGES.rejectionReason,
} as const;

export const ID_DOCUMENT_TYPES = ["passport", "drivers_license", "national_id"] as const;
export type IdDocumentType = (typeof ID_DOCUMENT_TYPES)[number];
export const KYC_FILE_FIELDS = ["idDocument", "proofOfAddress", "proofOfIncome"] as const;
export const MAX_KYC_FILE_BYTES = 10 * 1024 * 1024;
/** Judged by the file's bytes, never by its name or the browser's claim. */
export const KYC_MIME_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp", "image/heic", "image/tiff", "application/pdf"] as const;

export const kycUploadFieldsSchema = z.object({
  idDocumentType: z.enum(ID_DOCUMENT_TYPES, { error: KYC_MESSAGES.documentType }),
});

const optionalText = z.preprocess((value) => (typeof value === "string" && value.trim() === "" ? undefined : value), z.string().trim().max(2000).optional());

/**
 * PUT /admin/users/{id}/kyc {action, notes}: approve or reject. A rejection needs its reason, as a loan's does: the
 * user is told it and must act on it. It is `rejectionReason`, or the spec's `notes` when that is all that is sent.
 */
export const kycDecisionSchema = z
  .object({
    action: z.preprocess((value) => (value === "approved" ? "approve" : value === "rejected" ? "reject" : value), z.enum(["approve", "reject"], { error: KYC_MESSAGES.action })),
    notes: optionalText,
    rejectionReason: optionalText,
  })
  .superRefine((body, ctx) => {
    if (body.action === "reject" && !(body.rejectionReason ?? body.notes)) {
      ctx.addIssue({ code: "custom", message: KYC_MESSAGES.rejectionReason, path: ["rejectionReason"] });
    }
  });
export type KycDecisionInput = z.infer<typeof kycDecisionSchema>;
