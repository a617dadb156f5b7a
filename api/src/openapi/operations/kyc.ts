import { KYC_FILE_FIELDS, KYC_MIME_TYPES, kycUploadFieldsSchema } from "#domain/schemas/kyc";
import type { OperationGroup } from "../types";

export const kycOperations: OperationGroup = {
  tag: "KYC",
  description: "Identity documents: upload, status, and the documents themselves (owner or admin only).",
  operations: {
    "GET /api/users/kyc/status": { summary: "My KYC status and documents", access: "user" },
    "POST /api/users/kyc/upload": {
      summary: "Submit KYC documents",
      description: "One to three files (images or PDF, 10 MB each, judged by their bytes) and the ID document's type.",
      access: "user",
      body: { multipart: { files: KYC_FILE_FIELDS, fields: kycUploadFieldsSchema } },
    },
    "GET /api/users/kyc/documents/{documentId}": {
      summary: "Download one KYC document",
      description: "Its owner or an admin only; another user's document answers as missing.",
      access: "user",
      raw: { contentTypes: KYC_MIME_TYPES, description: "The document's bytes, as an attachment." },
    },
  },
};
