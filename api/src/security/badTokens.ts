import { decodeJwt, exportJWK, generateKeyPair, SignJWT, UnsecuredJWT } from "jose";

const b64 = (value: unknown) => Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url");
const enc = (secret: string) => new TextEncoder().encode(secret);
const now = () => Math.floor(Date.now() / 1000);

/**
 * Every way we know to forge, bend or break a bearer token, built against one real user's valid token and the
 * server's real secret (which an attacker would not have: those tokens test the claims, not the signature).
 */
export async function badTokens(input: { secret: string; valid: string; victimId: string; adminId: string }): Promise<Record<string, string>> {
  const { secret, valid, victimId, adminId } = input;
  const claims = decodeJwt(valid);
  const stamp = claims.pws as string;
  const [header, payload, signature] = valid.split(".");
  const asAdmin = { ...claims, role: "admin", sub: adminId };
  const attacker = await generateKeyPair("RS256", { extractable: true });
  const real = (build: (jwt: SignJWT) => SignJWT, body: Record<string, unknown> = { role: "user", pws: stamp }) => build(new SignJWT(body).setProtectedHeader({ alg: "HS256" })).sign(enc(secret));

  return {
    "alg none, admin claims": new UnsecuredJWT({ role: "admin", pws: stamp }).setSubject(adminId).setIssuer("loanmint").setExpirationTime("1h").encode(),
    "alg None, hand-made": `${b64({ alg: "None", typ: "JWT" })}.${b64(asAdmin)}.`,
    "alg nOnE with the original signature": `${b64({ alg: "nOnE", typ: "JWT" })}.${b64(asAdmin)}.${signature}`,
    "HS256, payload changed to role admin": `${header}.${b64({ ...claims, role: "admin" })}.${signature}`,
    "HS256, payload changed to another user": `${header}.${b64(asAdmin)}.${signature}`,
    "HS256, expiry pushed back": `${header}.${b64({ ...claims, exp: now() + 10 * 365 * 86400 })}.${signature}`,
    "HS256 signed with another secret": await new SignJWT({ role: "admin", pws: stamp })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(victimId)
      .setIssuer("loanmint")
      .setExpirationTime("1h")
      .sign(enc("another-secret-of-at-least-32-characters!")),
    "HS256 signed with an empty secret": `${header}.${payload}.${Buffer.from(await crypto.subtle.sign("HMAC", await crypto.subtle.importKey("raw", new Uint8Array([0]), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]), new TextEncoder().encode(`${header}.${payload}`))).toString("base64url")}`,
    "HS512 with the real secret": await new SignJWT({ role: "user", pws: stamp })
      .setProtectedHeader({ alg: "HS512" })
      .setSubject(victimId)
      .setIssuer("loanmint")
      .setExpirationTime("1h")
      .sign(enc(secret)),
    "RS256 by an attacker's key, embedded as jwk": await new SignJWT({ role: "admin", pws: stamp })
      .setProtectedHeader({ alg: "RS256", jwk: await exportJWK(attacker.publicKey) })
      .setSubject(victimId)
      .setIssuer("loanmint")
      .setExpirationTime("1h")
      .sign(attacker.privateKey),
    "HS256 keyed with the attacker's RSA public key (key confusion)": await new SignJWT({ role: "admin", pws: stamp })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(victimId)
      .setIssuer("loanmint")
      .setExpirationTime("1h")
      .sign(enc(JSON.stringify(await exportJWK(attacker.publicKey)))),
    expired: await real((jwt) =>
      jwt
        .setSubject(victimId)
        .setIssuer("loanmint")
        .setIssuedAt(now() - 7200)
        .setExpirationTime(now() - 60),
    ),
    "not valid yet": await real((jwt) =>
      jwt
        .setSubject(victimId)
        .setIssuer("loanmint")
        .setNotBefore(now() + 3600)
        .setExpirationTime("2h"),
    ),
    "another issuer": await real((jwt) => jwt.setSubject(victimId).setIssuer("evil").setExpirationTime("1h")),
    "no subject": await real((jwt) => jwt.setIssuer("loanmint").setExpirationTime("1h")),
    "no password stamp": await real((jwt) => jwt.setSubject(victimId).setIssuer("loanmint").setExpirationTime("1h"), { role: "user" }),
    "another user's password stamp": await real((jwt) => jwt.setSubject(adminId).setIssuer("loanmint").setExpirationTime("1h")),
    "a subject that is no user": await real((jwt) => jwt.setSubject("00000000-0000-0000-0000-000000000000").setIssuer("loanmint").setExpirationTime("1h")),
    "a subject that is no uuid": await real((jwt) => jwt.setSubject("' OR 1=1 --").setIssuer("loanmint").setExpirationTime("1h")),
    "signature stripped": `${header}.${payload}.`,
    "two parts": `${header}.${payload}`,
    "four parts": `${valid}.${signature}`,
    "header is not JSON": `${b64("not json")}.${payload}.${signature}`,
    "payload is not JSON": `${header}.${b64("{{{")}.${signature}`,
    "payload is an array": `${header}.${b64([1, 2])}.${signature}`,
    garbage: "garbage",
    // Under Node's 16 kB header limit, so the app itself judges it (beyond it the server answers 431).
    "12 kB of base64": "A".repeat(12 * 1024),
    "the token twice": `${valid}${valid}`,
  };
}
