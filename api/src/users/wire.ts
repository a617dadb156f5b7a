import type { UserRow } from "#db/schema";
import type { WireUser } from "#domain/wire/user";

/** The user as the client reads it: domain/wire/user.ts's shape. */
export function toWireUser(row: UserRow, appOrigin: string): WireUser {
  return {
    _id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email ?? "",
    phoneNumber: row.phone ?? "",
    phone: row.phone ?? "",
    address: row.address ?? null,
    profilePicture: row.profilePicture ? `${appOrigin}${AVATAR_ROUTE}/${row.profilePicture}` : null,
    role: row.role,
    isWalletUser: row.isWalletUser,
    walletAddress: row.walletAddress ?? null,
    walletHint: row.walletHint ?? null,
    kycStatus: row.kycStatus,
    kyc: { status: row.kycStatus },
    remindersMuted: row.remindersMuted,
    lastLoginAt: row.lastLoginAt?.toISOString() ?? null,
    lastLogin: row.lastLoginAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Where uploaded avatars are served; the DB keeps only the generated file name. */
export const AVATAR_ROUTE = "/api/uploads/avatars";
