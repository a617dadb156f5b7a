import { z } from "zod";
import { KYC_STATUSES, ROLES } from "../statuses";

const text = z.string().nullable();

/** A postal address as stored: one line, or the registration form's parts. */
const address = z.union([
  z.string(),
  z.object({ street: z.string().optional(), city: z.string().optional(), state: z.string().optional(), zipCode: z.string().optional(), country: z.string().optional() }),
]);

/**
 * A user as the routes answer it, never the password hash; api/src/users/wire.ts is typed by it.
 * `phone` beside `phoneNumber`, `kyc.status` beside `kycStatus` and `lastLogin` beside `lastLoginAt` are the
 * spec's other names for the same values.
 */
export const wireUserSchema = z.object({
  _id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phoneNumber: z.string(),
  phone: z.string(),
  address: address.nullable(),
  profilePicture: text,
  role: z.enum(ROLES),
  isWalletUser: z.boolean(),
  walletAddress: text,
  walletHint: text,
  kycStatus: z.enum(KYC_STATUSES),
  kyc: z.object({ status: z.enum(KYC_STATUSES) }),
  /** The user asked for no servicing reminders (due dates, missed payments, cures, defaults). */
  remindersMuted: z.boolean(),
  lastLoginAt: text,
  lastLogin: text,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WireUser = z.infer<typeof wireUserSchema>;
