import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { startTestApi, newRegistration, type TestApi } from "../testing/harness";

let api: TestApi;
before(async () => {
  api = await startTestApi({ env: { ADMIN_INVITE_CODE: "inbox-reader-code" } });
});
after(async () => {
  await api.close();
});

const message = { name: "Jo Park", email: "jo@example.com", subject: "Bug Report", message: "The page is blue.", phone: "", _subject: "Contact: Bug Report", _replyto: "jo@example.com" };

test("POST /contact stores the message and admins read it in their inbox", async () => {
  const answer = await api.call("POST", "/contact", { body: message });
  assert.equal(answer.status, 201);
  assert.equal(answer.body.success, true);
  assert.equal(answer.body.message, "Message sent successfully! We'll get back to you soon.");
  const admin = await api.call("POST", "/auth/register", { body: newRegistration({ role: "admin", adminInviteCode: "inbox-reader-code" }) });
  const inbox = await api.call("GET", "/contact", { token: admin.body.data.token });
  assert.equal(inbox.status, 200);
  const stored = inbox.body.data.messages.find((m: { _id: string }) => m._id === answer.body.data._id);
  assert.equal(stored.subject, "Bug Report");
  assert.equal(stored.message, "The page is blue.");
  assert.equal(stored.phone, null);
});

test("the inbox is closed to users (403) and visitors (401)", async () => {
  const user = await api.call("POST", "/auth/register", { body: newRegistration() });
  const forbidden = await api.call("GET", "/contact", { token: user.body.data.token });
  assert.equal(forbidden.status, 403);
  assert.equal(forbidden.body.message, "Access denied");
  assert.equal((await api.call("GET", "/contact")).status, 401);
});

test("a message sent while signed in names its sender in the inbox; one sent by a visitor names nobody", async () => {
  const admin = await api.call("POST", "/auth/register", { body: newRegistration({ role: "admin", adminInviteCode: "inbox-reader-code" }) });
  const user = await api.call("POST", "/auth/register", { body: newRegistration() });
  const signedIn = await api.call("POST", "/contact", { token: user.body.data.token, body: { ...message, message: "Sent while signed in" } });
  const visitor = await api.call("POST", "/contact", { body: { ...message, message: "Sent by a visitor" } });
  assert.equal(signedIn.status, 201);
  assert.equal(visitor.status, 201);
  const inbox = (await api.call("GET", "/admin/contact", { token: admin.body.data.token })).body.data.messages as { _id: string; userId: string | null }[];
  assert.equal(inbox.find((m) => m._id === signedIn.body.data._id)?.userId, user.body.data.user._id);
  assert.equal(inbox.find((m) => m._id === visitor.body.data._id)?.userId, null);
});

test("marking a message read needs an existing message id: an unknown or malformed one is 404 'Message not found'", async () => {
  const admin = await api.call("POST", "/auth/register", { body: newRegistration({ role: "admin", adminInviteCode: "inbox-reader-code" }) });
  const token = admin.body.data.token;
  const sent = await api.call("POST", "/contact", { body: message });
  for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-uuid", "1 or 1=1", "0123456789abcdef0123456789abcdef0123", "-".repeat(36)]) {
    const answer = await api.call("PUT", `/admin/contact/${encodeURIComponent(id)}/read`, { token });
    assert.equal(answer.status, 404, id);
    assert.equal(answer.body.message, "Message not found");
  }
  const inbox = (await api.call("GET", "/admin/contact", { token })).body.data.messages as { _id: string; read: boolean }[];
  assert.equal(inbox.find((m) => m._id === sent.body.data._id)?.read, false, "nothing was marked read");
  const user = await api.call("POST", "/auth/register", { body: newRegistration() });
  const refused = await api.call("PUT", `/admin/contact/${sent.body.data._id}/read`, { token: user.body.data.token });
  assert.equal(refused.status, 403);
  assert.equal(refused.body.message, "Access denied");
});

const invalid: Array<[string, Record<string, unknown>, string]> = [
  ["no name", { name: " " }, "Name is required"],
  ["a bad email", { email: "jo@" }, "Please enter a valid email address"],
  ["an unknown subject", { subject: "Free money" }, "Please select a subject"],
  ["no message", { message: "" }, "Message is required"],
  ["a huge message", { message: "x".repeat(5001) }, "Message must be at most 5000 characters"],
];
for (const [what, overrides, expected] of invalid) {
  test(`POST /contact refuses ${what} with '${expected}'`, async () => {
    const answer = await api.call("POST", "/contact", { body: { ...message, ...overrides } });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.message, expected);
  });
}
