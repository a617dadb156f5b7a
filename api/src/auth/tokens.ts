import { createHash } from "node:crypto";
import { SignJWT, jwtVerify } from "jose";
import type { UserRow } from "#db/schema";

const ISSUER = "loanmint";
export const TOKEN_LIFETIME = "7d";

type TokenUser = Pick<UserRow, "id" | "role" | "passwordHash">;

export interface TokenService {
  issue(user: TokenUser): Promise<string>;
  /** The user id and password stamp, or null for anything not signed by us with HS256 and unexpired. */
  verify(token: string): Promise<{ userId: string; stamp: string } | null>;
  /** Whether a token's stamp still matches the user: a password change ends every earlier session. */
  current(user: TokenUser, stamp: string): boolean;
  /** The stamp the user's tokens carry now (what `current` compares with). */
  stamp(user: TokenUser): string;
}

/** A short digest of the password hash (never the hash itself): changes whenever the password does. */
const passwordStamp = (user: TokenUser) =>
  createHash("sha256")
    .update(user.passwordHash ?? "wallet")
    .digest("base64url")
    .slice(0, 16);

export function createTokenService(secret: string): TokenService {
  const key = new TextEncoder().encode(secret);
  return {
    issue: (user) =>
      new SignJWT({ role: user.role, pws: passwordStamp(user) })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setSubject(user.id)
        .setIssuer(ISSUER)
        .setIssuedAt()
        .setExpirationTime(TOKEN_LIFETIME)
        .sign(key),
    async verify(token) {
      try {
        // Pinning the algorithm refuses alg "none" and any key-confusion trick.
        const { payload } = await jwtVerify(token, key, { algorithms: ["HS256"], issuer: ISSUER });
        if (typeof payload.sub !== "string" || typeof payload.pws !== "string") return null;
        return { userId: payload.sub, stamp: payload.pws };
      } catch {
        return null;
      }
    },
    current: (user, stamp) => passwordStamp(user) === stamp,
    stamp: passwordStamp,
  };
}
