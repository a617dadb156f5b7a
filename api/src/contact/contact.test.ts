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
