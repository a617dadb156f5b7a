import { z } from "zod";
import { wireLoanSchema } from "#domain/wire/loan";
import { wireUserSchema } from "#domain/wire/user";
import { wireKycSchema, type WireKycDocument } from "#domain/wire/kyc";

/** A user as GET /admin/users lists them: the one user shape, with how many loans each has. */
export const adminUserSchema = wireUserSchema.extend({ loanCount: z.number().optional() });
export type AdminUser = z.infer<typeof adminUserSchema>;

export type KycDocument = WireKycDocument;

export const userDetailsSchema = adminUserSchema.extend({ kyc: wireKycSchema, loans: z.array(wireLoanSchema).default([]) });
export type UserDetails = z.infer<typeof userDetailsSchema>;
