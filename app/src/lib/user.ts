import type { z } from "zod";
import type { KycStatus } from "#domain/statuses";
import { wireUserSchema } from "#domain/wire/user";

/**
 * The user as the client reads it: the API's one user shape (domain/wire/user.ts). Loose on purpose: a route may send
 * more beside it (the KYC upload adds the submission), and the session keeps what it got (updates merge into it).
 */
export const userSchema = wireUserSchema.loose();

export type User = z.infer<typeof userSchema>;

export type { KycStatus };

/** kycStatus is also sent as kyc.status; a session stored by an older client may lack either. */
export function kycStatusOf(user: User | null | undefined): KycStatus {
  return user?.kycStatus ?? user?.kyc?.status ?? "none";
}

/** The profile shows the address as one string; registration sends it as an object. */
export function addressText(address: User["address"] | undefined): string {
  if (!address) return "";
  if (typeof address === "string") return address;
  return [address.street, address.city, address.state, address.zipCode, address.country].filter(Boolean).join(", ");
}

export function phoneOf(user: User | null | undefined): string {
  return user?.phoneNumber || user?.phone || "";
}
