import { z } from "zod";
import { wireLoanSchema } from "#domain/wire/loan";

const text = z.string().nullish();

export const adminUserSchema = z
  .object({
    _id: z.string(),
    firstName: z.string().default(""),
    lastName: z.string().default(""),
    email: z.string().default(""),
    phone: text,
    role: z.enum(["user", "admin"]),
    isWalletUser: z.boolean().default(false),
    walletAddress: text,
    walletHint: text,
    kycStatus: z.string(),
    lastLogin: text,
    createdAt: z.string(),
    loanCount: z.number().optional(),
  })
  .loose();
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
