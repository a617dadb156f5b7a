import { z } from "zod";
import { wireLoanSchema } from "#domain/wire/loan";
import { wireUserSchema } from "#domain/wire/user";

const text = z.string().nullish();

/** A user as GET /admin/users lists them: the one user shape, with how many loans each has. */
export const adminUserSchema = wireUserSchema.extend({ loanCount: z.number().optional() });
export type AdminUser = z.infer<typeof adminUserSchema>;

const documentSchema = z.object({ _id: z.string(), kind: z.string(), url: z.string(), mimeType: z.string(), size: z.number(), originalName: text, uploadedAt: z.string() });
export type KycDocument = z.infer<typeof documentSchema>;

export const kycSchema = z.object({
  status: z.string(),
  idDocumentType: text,
  submittedAt: text,
  reviewedAt: text,
  rejectionReason: text,
  notes: text,
  documents: z.record(z.string(), documentSchema.nullable()),
});

export const userDetailsSchema = adminUserSchema.extend({ kyc: kycSchema, loans: z.array(wireLoanSchema).default([]) });
export type UserDetails = z.infer<typeof userDetailsSchema>;
