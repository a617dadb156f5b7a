import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { decodeJwt, SignJWT } from "jose";
import { io as connect } from "socket.io-client";
import type { Request } from "express";
import { listRoutes } from "../http/routes";
import { bearerToken, currentUser, optionalAuth, requireAdmin, requireAuth, userFromRequest } from "../http/auth";
import type { UserRow } from "#db/schema";
import { createTokenService } from "../auth/tokens";
import { makeUser, type TestUser } from "#testing/loanStack";
import { startTestApi, type TestApi } from "../testing/harness";
import { badTokens } from "./badTokens";
import { PASSWORD } from "./world";
import { ROUTE_TABLE } from "./routeTable";

/**
 * Tampered, forged and stale bearer tokens on every route that needs a user, and on the socket.io handshake.
 * auth.test.ts checks the basic cases on /auth/me; this runs the whole catalogue everywhere, so a route that
 * verifies tokens its own way cannot slip through.
 */
let api: TestApi;
let user: TestUser;
let admin: TestUser;
let tokens: Record<string, string>;

/** Routes that refuse anonymous callers (per the route table), plus those where a token is optional but checked when sent. */
const OPTIONAL_AUTH = new Set(["POST /api/contact", "POST /api/auth/wallet/verify"]);

before(async () => {
  api = await startTestApi();
  [user, admin] = await Promise.all([makeUser(api), makeUser(api, { admin: true })]);
  tokens = await badTokens({ secret: api.config.jwtSecret, valid: user.token, victimId: user.id, adminId: admin.id });

  // A user who was deleted, and a session from before a password change, both with once-valid tokens.
  const deleted = await makeUser(api);
  await api.database.db.execute(sql`delete from users where id = ${deleted.id}`);
  tokens["a deleted user's token"] = deleted.token;
  const changed = await makeUser(api);
  const answer = await api.call("PUT", "/auth/change-password", { token: changed.token, body: { currentPassword: PASSWORD, newPassword: "a-new-password" } });
  assert.equal(answer.status, 200);
  tokens["a token from before a password change"] = changed.token;
});
after(async () => {
  await api?.close();
});

function guardedRoutes() {
  const anonymousRefused = new Set(ROUTE_TABLE.filter((row) => row.anonymous === 401).map((row) => `${row.method} ${row.path}`));
  return listRoutes(api.server.app).filter((route) => anonymousRefused.has(`${route.method} ${route.path}`) || OPTIONAL_AUTH.has(`${route.method} ${route.path}`));
}

async function call(method: string, path: string, authorization: string) {
  const url = path.replace(/\{\w+\}/g, "00000000-0000-4000-8000-000000000000");
  const response = await fetch(`${api.url}${url}`, {
    method,
    headers: { authorization, ...(method === "GET" ? {} : { "content-type": "application/json" }) },
    body: method === "GET" ? undefined : "{}",
  });
  return { status: response.status, message: ((await response.json()) as { message?: string }).message };
}

describe("bearer tokens over HTTP", () => {
  test("every forged, tampered, stale or malformed token gets 401 'Invalid or expired token' on every route that needs a user", async () => {
    const routes = guardedRoutes();
    assert.ok(routes.length >= 45, `only ${routes.length} guarded routes`);
    // Every token on /auth/me and on one route behind each other router's own auth middleware; elsewhere every
    // route gets every third token in turn, so each token still meets a third of the routes.
    const everyToken = new Set([
      "GET /api/auth/me",
      "GET /api/nfts/my-portfolio",
      "GET /api/users/kyc/status",
      "GET /api/activity",
      "GET /api/admin/dashboard",
      "POST /api/contact",
      "POST /api/auth/wallet/verify",
    ]);
    const names = Object.keys(tokens);
    const cases = routes.flatMap((route, r) => names.filter((_name, t) => everyToken.has(`${route.method} ${route.path}`) || (t + r) % 3 === 0).map((name) => ({ route, name, token: tokens[name] })));
    const wrong: string[] = [];
    // A few at a time: a thousand sequential requests would be slow, a thousand at once a load test.
    for (let i = 0; i < cases.length; i += 16) {
      await Promise.all(
        cases.slice(i, i + 16).map(async ({ route, name, token }) => {
          const answer = await call(route.method, route.path, `Bearer ${token}`);
          if (answer.status !== 401 || answer.message !== "Invalid or expired token") wrong.push(`${route.method} ${route.path} with ${name}: ${answer.status} ${answer.message}`);
        }),
      );
    }
    assert.deepEqual(wrong, []);
  });

  test("a header that is not one bearer token is refused the same way", async () => {
    for (const authorization of ["Bearer", "Bearer ", `Basic ${Buffer.from("admin:admin").toString("base64")}`, `Token ${user.token}`, `Bearer ${user.token} ${user.token}`, `Bearer\t\t`]) {
      const answer = await call("GET", "/api/auth/me", authorization);
      assert.equal(answer.status, 401, JSON.stringify(authorization));
      assert.equal(answer.message, "Invalid or expired token");
    }
    // Control: the same request with the real token is let in.
    assert.equal((await call("GET", "/api/auth/me", `Bearer ${user.token}`)).status, 200);
  });

  test("a role claim is never trusted: even a token signed with the real secret that says admin gives a borrower no admin route", async () => {
    const { pws } = decodeJwt(user.token);
    const claimsAdmin = await new SignJWT({ role: "admin", pws })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(user.id)
      .setIssuer("loanmint")
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode(api.config.jwtSecret));
    const answer = await call("GET", "/api/admin/dashboard", `Bearer ${claimsAdmin}`);
    assert.equal(answer.status, 403);
    assert.equal(answer.message, "Access denied");
  });
});

describe("the socket.io handshake", () => {
  /** The handshake's answer: "connected", or the error it was refused with. */
  function handshake(options: { token?: string; header?: string }): Promise<string> {
    const socket = connect(api.url, {
      auth: options.token === undefined ? {} : { token: options.token },
      extraHeaders: options.header ? { authorization: options.header } : undefined,
      transports: ["websocket"],
      reconnection: false,
      forceNew: true,
    });
    return new Promise((resolve) => {
      socket.once("connect", () => {
        socket.close();
        resolve("connected");
      });
      socket.once("connect_error", (error) => {
        socket.close();
        resolve(error.message);
      });
    });
  }

  test("refuses every bad token, sent as auth.token or as an Authorization header", async () => {
    assert.equal(await handshake({ token: user.token }), "connected", "control: the real token connects");
    assert.equal(await handshake({ header: `Bearer ${user.token}` }), "connected", "control: so does the header");
    const accepted: string[] = [];
    for (const [name, token] of Object.entries(tokens)) {
      const viaAuth = await handshake({ token });
      const viaHeader = await handshake({ header: `Bearer ${token}` });
      if (viaAuth !== "Invalid or expired token") accepted.push(`${name} as auth.token: ${viaAuth}`);
      if (viaHeader !== "Invalid or expired token") accepted.push(`${name} as header: ${viaHeader}`);
    }
    assert.deepEqual(accepted, []);
  });
});

/**
 * The token service and the bearer header on their own: over HTTP a later check (the user's current password stamp)
 * refuses what these let through, so a weakened first check would go unseen there.
 */
describe("the token service and the bearer header, each on its own", () => {
  const secret = "a-test-secret-of-at-least-32-characters";
  const service = createTokenService(secret);
  const someone = { id: "00000000-0000-4000-8000-000000000001", role: "user" as const, passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$a$b" };
  const signed = (body: Record<string, unknown>, subject?: string) => {
    const jwt = new SignJWT(body).setProtectedHeader({ alg: "HS256" }).setIssuer("loanmint").setExpirationTime("1h");
    return (subject === undefined ? jwt : jwt.setSubject(subject)).sign(new TextEncoder().encode(secret));
  };

  test("verify answers exactly null for a token with no password stamp, no subject, a stamp that is no text, or no signature of ours", async () => {
    const stamp = service.stamp(someone);
    assert.equal(await service.verify(await signed({ role: "user" }, someone.id)), null);
    assert.equal(await service.verify(await signed({ role: "user", pws: stamp })), null);
    assert.equal(await service.verify(await signed({ role: "user", pws: 12345 }, someone.id)), null);
    assert.equal(await service.verify("garbage"), null);
    assert.deepEqual(await service.verify(await service.issue(someone)), { userId: someone.id, stamp });
  });

  test("the password stamp is a 16-character digest that changes with the password and never shows the hash", () => {
    const stamp = service.stamp(someone);
    assert.match(stamp, /^[A-Za-z0-9_-]{16}$/);
    assert.ok(service.current(someone, stamp));
    assert.ok(!service.current({ ...someone, passwordHash: `${someone.passwordHash}x` }, stamp));
    assert.ok(!stamp.includes(someone.passwordHash.slice(0, 8)));
  });

  test("no authorization header is an anonymous caller, not a bad token: nobody is looked up and nothing is thrown", async () => {
    const bare = { headers: {} } as Request;
    assert.equal(bearerToken(bare), null);
    let lookedUp = false;
    const user = await userFromRequest(bare, service, async () => {
      lookedUp = true;
      return undefined;
    });
    assert.equal(user, null);
    assert.equal(lookedUp, false);
    assert.equal(bearerToken({ headers: { authorization: "Bearer abc" } } as Request), "abc");
    assert.equal(bearerToken({ headers: { authorization: "Basic abc" } } as Request), "");
  });

  /** Runs one middleware: what it put on the request, whether it passed on, and what it threw (status). */
  async function through(handler: (req: Request, res: never, next: () => void) => unknown, req: Partial<Request>) {
    let passed = false;
    try {
      await handler(req as Request, undefined as never, () => {
        passed = true;
      });
      return { passed, status: null as number | null, user: req.user };
    } catch (error) {
      return { passed, status: (error as { status?: number }).status ?? -1, user: req.user };
    }
  }

  test("the middlewares: requireAuth refuses no token and passes a good one, optionalAuth signs in or leaves anonymous, requireAdmin lets only an admin on", async () => {
    const row = (role: "user" | "admin") => ({ ...someone, id: `00000000-0000-4000-8000-00000000000${role === "admin" ? 2 : 1}`, role }) as UserRow;
    const people = new Map([row("user"), row("admin")].map((u) => [u.id, u]));
    const find = async (id: string) => people.get(id);
    const bearer = async (role: "user" | "admin") => ({ headers: { authorization: `Bearer ${await service.issue(row(role))}` } });

    assert.deepEqual(await through(requireAuth(service, find), { headers: {} }), { passed: false, status: 401, user: undefined });
    const signedIn = await through(requireAuth(service, find), await bearer("user"));
    assert.deepEqual([signedIn.passed, signedIn.status, signedIn.user?.id], [true, null, row("user").id]);

    assert.deepEqual(await through(optionalAuth(service, find), { headers: {} }), { passed: true, status: null, user: undefined });
    const optional = await through(optionalAuth(service, find), await bearer("admin"));
    assert.deepEqual([optional.passed, optional.user?.role], [true, "admin"]);

    assert.deepEqual(await through(requireAdmin, { user: row("user") }), { passed: false, status: 403, user: row("user") });
    assert.deepEqual(await through(requireAdmin, {}), { passed: false, status: 403, user: undefined }, "alone, it refuses nobody's request too");
    assert.deepEqual(await through(requireAdmin, { user: row("admin") }), { passed: true, status: null, user: row("admin") });
    assert.throws(
      () => currentUser({} as Request),
      (error: { status?: number }) => error.status === 401,
    );
    assert.equal(currentUser({ user: row("user") } as Request).id, row("user").id);
  });
});
