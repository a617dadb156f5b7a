import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { SignJWT, UnsecuredJWT, decodeJwt } from "jose";
import { sql } from "drizzle-orm";
import { startTestApi, newRegistration, type TestApi } from "../testing/harness";

let api: TestApi;
before(async () => {
  api = await startTestApi();
});
after(async () => {
  await api.close();
});

async function registerAndLogin(overrides: Record<string, unknown> = {}) {
  const registration = newRegistration(overrides);
  const registered = await api.call("POST", "/auth/register", { body: registration });
  assert.equal(registered.status, 201, registered.body.message);
  const login = await api.call("POST", "/auth/login", { body: { email: registration.email, password: registration.password } });
  assert.equal(login.status, 200);
  return { registration, user: login.body.data.user, token: login.body.data.token as string };
}

describe("registration", () => {
  test("creates a user with an argon2id hash that never reaches the wire", async () => {
    const registration = newRegistration({ walletAddress: "0x" + "1".repeat(40) });
    const answer = await api.call("POST", "/auth/register", { body: registration });
    assert.equal(answer.status, 201);
    assert.equal(answer.body.success, true);
    assert.match(answer.body.message, /^Registration successful/);
    const user = answer.body.data.user;
    assert.equal(user.email, registration.email);
    assert.equal(user.role, "user");
    assert.equal(user.kycStatus, "none");
    assert.deepEqual(user.kyc, { status: "none" });
    assert.equal(user.phoneNumber, registration.phone);
    assert.equal(user.address.country, "United States");
    assert.equal(user.walletAddress, null, "a typed address is only a hint");
    assert.equal(user.walletHint, "0x" + "1".repeat(40));
    assert.match(user._id, /^[0-9a-f-]{36}$/);
    assert.ok(!JSON.stringify(answer.body).includes("argon2"));
    const rows = (await api.database.db.execute(sql`select password_hash from users where id = ${user._id}`)) as unknown as { rows: { password_hash: string }[] };
    assert.match(rows.rows[0].password_hash, /^\$argon2id\$/);
  });

  const invalid: Array<[string, Record<string, unknown>, string]> = [
    ["a one-letter first name", { firstName: "A" }, "First name must be at least 2 characters"],
    ["a missing first name", { firstName: undefined }, "First name must be at least 2 characters"],
    ["a one-letter last name", { lastName: "B" }, "Last name must be at least 2 characters"],
    ["a malformed email", { email: "not-an-email" }, "Please enter a valid email address"],
    ["a five-character password", { password: "12345" }, "Password must be at least 6 characters"],
    ["a short phone number", { phone: "12345" }, "Please enter a valid phone number"],
    ["an unknown role", { role: "superuser" }, "Please select user type"],
    ["a malformed wallet hint", { walletAddress: "0x123" }, "Please enter a valid wallet address"],
  ];
  for (const [what, overrides, message] of invalid) {
    test(`refuses ${what} with '${message}'`, async () => {
      const answer = await api.call("POST", "/auth/register", { body: newRegistration(overrides) });
      assert.equal(answer.status, 400);
      assert.equal(answer.body.success, false);
      assert.equal(answer.body.message, message);
    });
  }

  test("accepts a registration without the optional phone, address and wallet", async () => {
    const answer = await api.call("POST", "/auth/register", { body: newRegistration({ phone: "", address: undefined }) });
    assert.equal(answer.status, 201);
    assert.equal(answer.body.data.user.phoneNumber, "");
  });

  test("refuses an email that differs from an existing one only in case with 409", async () => {
    const first = newRegistration();
    assert.equal((await api.call("POST", "/auth/register", { body: first })).status, 201);
    const again = await api.call("POST", "/auth/register", { body: newRegistration({ email: first.email.toUpperCase() }) });
    assert.equal(again.status, 409);
    assert.equal(again.body.message, "An account with this email already exists");
  });

  test("answers 400, not 500, to a body that is not JSON", async () => {
    const response = await fetch(`${api.url}/api/auth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: "{nope" });
    assert.equal(response.status, 400);
    assert.equal((await response.json()).success, false);
  });

  test("refuses a self-made admin with 403 'Access denied' when admin registration is off, and tells the app it is off", async () => {
    const answer = await api.call("POST", "/auth/register", { body: newRegistration({ role: "admin", adminInviteCode: "anything-at-all" }) });
    assert.equal(answer.status, 403);
    assert.equal(answer.body.message, "Access denied");
    assert.deepEqual(answer.body.data.errors, [{ path: "role", message: "Administrator sign-up is not open on this platform" }]);
    const config = await api.call("GET", "/config");
    assert.equal(config.body.data.adminSignup, false, "registration offers no Administrator");
  });
});

describe("admin registration with an invite code", () => {
  let invited: TestApi;
  before(async () => {
    invited = await startTestApi({ env: { ADMIN_INVITE_CODE: "let-me-in-please" } });
  });
  after(async () => {
    await invited.close();
  });

  test("makes an admin only with the operator's code", async () => {
    const answer = await invited.call("POST", "/auth/register", { body: newRegistration({ role: "admin", adminInviteCode: "let-me-in-please" }) });
    assert.equal(answer.status, 201);
    assert.equal(answer.body.data.user.role, "admin");
  });

  test("refuses a wrong or missing code with 403 'Access denied' and one message for the invite field", async () => {
    for (const adminInviteCode of ["let-me-in-pleasE", undefined]) {
      const answer = await invited.call("POST", "/auth/register", { body: newRegistration({ role: "admin", adminInviteCode }) });
      assert.equal(answer.status, 403);
      assert.equal(answer.body.message, "Access denied");
      assert.deepEqual(answer.body.data.errors, [{ path: "adminInviteCode", message: "This admin invite code is not valid" }]);
    }
  });

  test("tells the app that admin sign-up is on", async () => {
    const config = await invited.call("GET", "/config");
    assert.equal(config.body.data.adminSignup, true);
  });

  test("ignores an invite code on a user registration", async () => {
    const answer = await invited.call("POST", "/auth/register", { body: newRegistration({ adminInviteCode: "let-me-in-please" }) });
    assert.equal(answer.body.data.user.role, "user");
  });
});

describe("login", () => {
  test("answers the user and a token, whatever the email's case", async () => {
    const registration = newRegistration();
    await api.call("POST", "/auth/register", { body: registration });
    const answer = await api.call("POST", "/auth/login", { body: { email: registration.email.toUpperCase(), password: registration.password } });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.message, `Welcome back, ${registration.firstName}`);
    assert.equal(answer.body.data.user.email, registration.email);
    assert.equal(decodeJwt(answer.body.data.token).sub, answer.body.data.user._id);
    const exp = decodeJwt(answer.body.data.token).exp!;
    assert.ok(exp * 1000 > Date.now() + 6 * 86_400_000 && exp * 1000 < Date.now() + 8 * 86_400_000, "the token expires in about 7 days");
  });

  test("refuses a wrong password and an unknown email alike", async () => {
    const registration = newRegistration();
    await api.call("POST", "/auth/register", { body: registration });
    const wrong = await api.call("POST", "/auth/login", { body: { email: registration.email, password: "wrong-password" } });
    const unknown = await api.call("POST", "/auth/login", { body: { email: `nobody-${Date.now()}@example.com`, password: "whatever1" } });
    for (const answer of [wrong, unknown]) {
      assert.equal(answer.status, 401);
      assert.equal(answer.body.message, "Invalid email or password");
    }
  });

  test("checks the email and password with the spec's messages", async () => {
    const email = await api.call("POST", "/auth/login", { body: { email: "x@", password: "secret123" } });
    assert.equal(email.status, 400);
    assert.equal(email.body.message, "Please enter a valid email");
    const password = await api.call("POST", "/auth/login", { body: { email: "a@example.com", password: "12345" } });
    assert.equal(password.status, 400);
    assert.equal(password.body.message, "Password must be at least 6 characters");
  });

  test("/simple-auth/signup and /simple-auth/login are the same as register and login", async () => {
    const registration = newRegistration();
    const signup = await api.call("POST", "/simple-auth/signup", { body: registration });
    assert.equal(signup.status, 201);
    const login = await api.call("POST", "/simple-auth/login", { body: { email: registration.email, password: registration.password } });
    assert.equal(login.status, 200);
    assert.equal(login.body.data.user._id, signup.body.data.user._id);
  });
});

describe("tokens", () => {
  test("GET /auth/me answers the signed-in user", async () => {
    const { token, user } = await registerAndLogin();
    const answer = await api.call("GET", "/auth/me", { token });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.data.user._id, user._id);
    assert.equal(answer.body.data.user.passwordHash, undefined);
  });

  test("a missing token gets 401", async () => {
    const answer = await api.call("GET", "/auth/me");
    assert.equal(answer.status, 401);
    assert.equal(answer.body.success, false);
  });

  test("a token signed with another secret, an alg-none token, a tampered one and an expired one all get 401", async () => {
    const { token, user } = await registerAndLogin();
    const stamp = decodeJwt(token).pws;
    const forged = await new SignJWT({ role: "admin", pws: stamp })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(user._id)
      .setIssuer("loanmint")
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode("a-completely-different-secret-of-32+chars"));
    const none = new UnsecuredJWT({ role: "admin", pws: stamp }).setSubject(user._id).setIssuer("loanmint").setExpirationTime("1h").encode();
    const [header, , signature] = token.split(".");
    const payload = Buffer.from(JSON.stringify({ ...decodeJwt(token), role: "admin", sub: user._id })).toString("base64url");
    const tampered = `${header}.${payload}.${signature}`;
    const expired = await new SignJWT({ role: "user", pws: stamp })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(user._id)
      .setIssuer("loanmint")
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(new TextEncoder().encode(api.config.jwtSecret));
    for (const bad of [forged, none, tampered, expired, "garbage"]) {
      const answer = await api.call("GET", "/auth/me", { token: bad });
      assert.equal(answer.status, 401, bad);
      assert.equal(answer.body.message, "Invalid or expired token");
    }
  });

  test("a valid token of a user who no longer exists gets 401", async () => {
    const { token, user } = await registerAndLogin();
    await api.database.db.execute(sql`delete from users where id = ${user._id}`);
    assert.equal((await api.call("GET", "/auth/me", { token })).status, 401);
  });
});

describe("password change", () => {
  test("changes the password: the new one signs in, the old one no longer", async () => {
    const { token, registration } = await registerAndLogin();
    const answer = await api.call("PUT", "/auth/change-password", { token, body: { currentPassword: registration.password, newPassword: "brand-new-pass" } });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.message, "Password changed successfully!");
    assert.equal((await api.call("GET", "/auth/me", { token })).status, 401, "earlier sessions end");
    assert.equal((await api.call("GET", "/auth/me", { token: answer.body.data.token })).status, 200, "the answer carries a fresh token");
    assert.equal((await api.call("POST", "/auth/login", { body: { email: registration.email, password: "brand-new-pass" } })).status, 200);
    assert.equal((await api.call("POST", "/auth/login", { body: { email: registration.email, password: registration.password } })).status, 401);
  });

  test("checks every rule with the spec's messages", async () => {
    const { token, registration } = await registerAndLogin();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ newPassword: "long-enough-1" }, "Current password is required"],
      [{ currentPassword: registration.password, newPassword: "short" }, "Password must be at least 8 characters long"],
      [{ currentPassword: registration.password, newPassword: "long-enough-1", confirmPassword: "long-enough-2" }, "New passwords do not match"],
      [{ currentPassword: "not-my-password", newPassword: "long-enough-1" }, "Current password is incorrect"],
    ];
    for (const [body, message] of cases) {
      const answer = await api.call("PUT", "/auth/change-password", { token, body });
      assert.equal(answer.status, 400);
      assert.equal(answer.body.message, message);
    }
  });

  test("needs a token", async () => {
    assert.equal((await api.call("PUT", "/auth/change-password", { body: { currentPassword: "a", newPassword: "bbbbbbbb" } })).status, 401);
  });
});

describe("rate limits", () => {
  let limited: TestApi;
  before(async () => {
    limited = await startTestApi({ rateLimits: { login: { max: 3, windowMs: 60_000 }, register: { max: 2, windowMs: 60_000 } } });
  });
  after(async () => {
    await limited.close();
  });

  test("login attempts beyond the limit get 429", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await limited.call("POST", "/auth/login", { body: { email: "victim@example.com", password: `guess-${i}xx` } })).status);
    }
    assert.deepEqual(statuses, [401, 401, 401, 429]);
  });

  test("registrations beyond the limit get 429 with a Retry-After", async () => {
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await limited.call("POST", "/auth/register", { body: newRegistration() }));
    assert.deepEqual(
      answers.map((a) => a.status),
      [201, 201, 429],
    );
    assert.equal(answers[2].body.message, "Too many requests. Please try again later.");
    assert.ok(Number(answers[2].headers.get("retry-after")) > 0);
  });
});

describe("the HTTP frame", () => {
  test("sets security headers and allows only the app's origin", async () => {
    const answer = await api.call("GET", "/health", { headers: { origin: "https://evil.example" } });
    assert.equal(answer.headers.get("x-content-type-options"), "nosniff");
    assert.ok(answer.headers.get("content-security-policy"));
    assert.equal(answer.headers.get("access-control-allow-origin"), "http://localhost:5001");
  });

  test("refuses a body over the size limit with 413", async () => {
    const answer = await api.call("POST", "/auth/login", { body: { email: "a@example.com", password: "x".repeat(200_000) } });
    assert.equal(answer.status, 413);
  });

  test("answers unknown API paths with a 404 envelope", async () => {
    const answer = await api.call("GET", "/no/such/path");
    assert.equal(answer.status, 404);
    assert.equal(answer.body.success, false);
  });
});
