import { SignJWT, jwtVerify } from "jose";
import type { UserRow } from "../../../db/schema";

const ISSUER = "loanmint";
export const TOKEN_LIFETIME = "7d";

export interface TokenService {
  issue(user: Pick<UserRow, "id" | "role">): Promise<string>;
  /** The user id, or null for anything not signed by us with HS256 and unexpired. */
  verify(token: string): Promise<string | null>;
}

export function createTokenService(secret: string): TokenService {
  const key = new TextEncoder().encode(secret);
  return {
    issue: (user) =>
      new SignJWT({ role: user.role })
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
        return typeof payload.sub === "string" ? payload.sub : null;
      } catch {
        return null;
      }
    },
  };
}
