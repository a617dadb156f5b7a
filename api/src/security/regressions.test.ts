import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { makeUser, type TestUser } from "#testing/loanStack";
import { startTestApi, type TestApi } from "../testing/harness";

/** The requests the fuzzer (fuzzRequests.ts) once answered with 500, each pinned here as the 4xx it must be. */
describe("requests that once answered 500", () => {
  let api: TestApi;
  let user: TestUser;
  let admin: TestUser;

  before(async () => {
    api = await startTestApi();
    [user, admin] = await Promise.all([makeUser(api), makeUser(api, { admin: true })]);
  });
  after(async () => {
    await api?.close();
  });

  const raw = (path: string, init: RequestInit & { token?: string }) =>
    fetch(`${api.url}/api${path}`, { ...init, headers: { ...(init.headers as Record<string, string>), ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) } });

  test("a multipart part without a field name is a 400 on both upload routes", async () => {
    const boundary = "----nameless";
    const body = `--${boundary}\r\nContent-Disposition: form-data; name=""; filename="x.png"\r\nContent-Type: image/png\r\n\r\nabc\r\n--${boundary}--\r\n`;
    for (const path of ["/users/profile/upload-picture", "/users/kyc/upload"]) {
      const answer = await raw(path, { method: "POST", token: user.token, headers: { "content-type": `multipart/form-data; boundary=${boundary}` }, body });
      assert.equal(answer.status, 400, path);
    }
  });

  test("a multipart body cut off before its closing boundary is a 400", async () => {
    const boundary = "----cut";
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="profilePicture"; filename="x.png"\r\nContent-Type: image/png\r\n\r\nabc`;
    const answer = await raw("/users/profile/upload-picture", { method: "POST", token: user.token, headers: { "content-type": `multipart/form-data; boundary=${boundary}` }, body });
    assert.equal(answer.status, 400);
  });

  test("a login email that is an object with a non-function toString is a 400", async () => {
    const answer = await api.call("POST", "/auth/login", { body: { email: { toString: {} }, password: "secret123" } });
    assert.equal(answer.status, 400);
  });

  test("a NUL character in a body or a query string is a 400, before it reaches PostgreSQL", async () => {
    const contact = await api.call("POST", "/contact", { body: { name: "N\u0000L", email: "n@example.com", subject: "Other", message: "hi" } });
    assert.equal(contact.status, 400);
    assert.equal(contact.body.message, "Text must not contain NUL characters");
    const key = await api.call("PUT", "/users/profile", { token: user.token, body: { firstName: "Ada", lastName: "Lovelace", ["a\u0000"]: 1 } });
    assert.equal(key.status, 400);
    const search = await api.call("GET", "/loans/my-loans?search=%00", { token: user.token });
    assert.equal(search.status, 400);
  });

  test("a lone surrogate in a body is a 400, before a jsonb column refuses it (seed 1334142974: a signup address)", async () => {
    // JSON.stringify writes a lone surrogate as the escape "\ud800", which is what a client can send.
    const body = JSON.stringify({ firstName: "Grace", lastName: "Hopper", email: "lone@example.com", password: "secret123", address: { street: "1 Main St", zipCode: "\ud800" } });
    assert.match(body, /\\ud800/);
    const answer = await raw("/simple-auth/signup", { method: "POST", headers: { "content-type": "application/json" }, body });
    assert.equal(answer.status, 400);
    assert.equal((await answer.json()).message, "Text must be valid Unicode");
  });

  test("a page or limit that is not a whole number falls back to the default instead of failing the query", async () => {
    for (const query of ["page=1e308", "limit=1.5", "page=-5&limit=1e400", "page=abc"]) {
      assert.equal((await api.call("GET", `/admin/contact?${query}`, { token: admin.token })).status, 200, query);
      assert.equal((await api.call("GET", `/contact?${query}`, { token: admin.token })).status, 200, query);
      assert.equal((await api.call("GET", `/nfts/admin/all?${query}`, { token: admin.token })).status, 200, query);
    }
  });
});
