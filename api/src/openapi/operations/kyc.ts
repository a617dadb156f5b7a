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
    "POST /api/users/kyc/documents/{documentId}/view": {
      summary: "A short-lived address to preview one KYC document in a frame",
      description:
        "To whoever may download the document (its owner or an admin; anyone else is told it does not exist). The answer's `url` carries a ticket that opens this document only, for five minutes.",
      access: "user",
      body: { none: true },
    },
    "GET /api/users/kyc/documents/{documentId}/view": {
      summary: "Preview one KYC document (the frame's address)",
      description:
        "Opens only with `?ticket=` from the POST above, for that document: no bearer token, since a frame cannot send one. Without a live ticket it answers as missing. Served inline under a policy of its own that allows nothing but the document itself.",
      access: "public",
      raw: { contentTypes: KYC_MIME_TYPES, description: "The document's bytes, inline." },
    },
  },
};
