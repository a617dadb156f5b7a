import { z } from "zod";
import { KYC_STATUSES } from "../statuses";

const text = z.string().nullable();

/** One uploaded KYC file as the routes answer it: its bytes are served at `url` to its owner and admins only. */
export const wireKycDocumentSchema = z.object({
  _id: z.string(),
  kind: z.string(),
  url: z.string(),
  mimeType: z.string(),
  size: z.number(),
  originalName: text,
  uploadedAt: z.string(),
});
export type WireKycDocument = z.infer<typeof wireKycDocumentSchema>;

/** The three document slots (idDocument, proofOfAddress, proofOfIncome), each the newest of its kind. */
export const wireKycDocumentsSchema = z.record(z.string(), wireKycDocumentSchema.nullable());
export type WireKycDocuments = z.infer<typeof wireKycDocumentsSchema>;

/** A user's KYC: the status, the latest submission's fields and its documents (api/src/kyc/service.ts is typed by it). */
export const wireKycSchema = z.object({
  status: z.enum(KYC_STATUSES),
  idDocumentType: text,
  submittedAt: text,
  reviewedAt: text,
  rejectionReason: text,
  notes: text,
  documents: wireKycDocumentsSchema,
});
export type WireKyc = z.infer<typeof wireKycSchema>;

/** GET /users/kyc/status: `status` and `kycStatus` are the spec's two names for one value. */
export const wireKycStatusSchema = z.object({
  status: z.enum(KYC_STATUSES),
  kycStatus: z.enum(KYC_STATUSES),
  kyc: wireKycSchema,
  kycDocuments: wireKycDocumentsSchema,
});
export type WireKycStatus = z.infer<typeof wireKycStatusSchema>;
