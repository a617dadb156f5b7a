import { z } from "zod";

/**
 * The user as the client reads it (spec 01 §3). Loose on purpose: the server may send more fields,
 * and the client keeps them (updates merge into the stored record).
 */
export const userSchema = z
  .object({
    _id: z.string(),
    firstName: z.string().default(""),
    lastName: z.string().default(""),
    email: z.string().nullish(),
    phoneNumber: z.string().nullish(),
    phone: z.string().nullish(),
    address: z.unknown().optional(),
    profilePicture: z.string().nullish(),
    role: z.enum(["user", "admin"]).default("user"),
    isWalletUser: z.boolean().default(false),
    walletAddress: z.string().nullish(),
    kycStatus: z.string().nullish(),
    kyc: z.object({ status: z.string().nullish() }).partial().nullish(),
    lastLogin: z.string().nullish(),
    createdAt: z.string().nullish(),
  })
  .loose();

export type User = z.infer<typeof userSchema>;

export type KycStatus = "approved" | "pending" | "rejected" | "none";

/** kycStatus is also seen as kyc.status (spec 01 §3). */
export function kycStatusOf(user: User | null | undefined): KycStatus {
  const raw = user?.kycStatus ?? user?.kyc?.status ?? "none";
  if (raw === "approved" || raw === "pending" || raw === "rejected") return raw;
  return "none";
}

/** The profile shows the address as one string; registration sends it as an object. */
export function addressText(address: unknown): string {
  if (!address) return "";
  if (typeof address === "string") return address;
  if (typeof address === "object") {
    const a = address as Record<string, unknown>;
    return [a.street, a.city, a.state, a.zipCode, a.country].filter((p) => typeof p === "string" && p).join(", ");
  }
  return "";
}

export function phoneOf(user: User | null | undefined): string {
  return user?.phoneNumber ?? user?.phone ?? "";
}
