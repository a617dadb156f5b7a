import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { notifications } from "#db/schema";
import { startTestApi, type TestApi } from "../testing/harness";
import { makeUser, validRequest, type TestUser } from "#testing/loanStack";
import { wireLoanPageSchema, wireLoanSchema } from "#domain/wire/loan";
import { wireUserSchema } from "#domain/wire/user";

let api: TestApi;
let admin: TestUser;

before(async () => {
  api = await startTestApi();
  admin = await makeUser(api, { admin: true });
});
after(async () => {
  await api?.close();
});

test("the admin users list counts each user's own loans (issue 18 §3: it showed 0 for everyone)", async () => {
  const borrower = await makeUser(api, { kyc: "approved", wallet: true });
  const other = await makeUser(api, { kyc: "approved", wallet: true });
  for (const [user, count] of [
    [borrower, 2],
    [other, 1],
  ] as const) {
    for (let i = 0; i < count; i++) {
      const requested = await api.call("POST", "/loans/request", { token: user.token, body: validRequest });
      assert.equal(requested.status, 201, requested.body?.message);
    }
  }
  const answer = await api.call("GET", "/admin/users?limit=100", { token: admin.token });
  assert.equal(answer.status, 200);
  const counts = new Map((answer.body.data.users as { _id: string; loanCount: number }[]).map((u) => [u._id, u.loanCount]));
  assert.equal(counts.get(borrower.id), 2);
  assert.equal(counts.get(other.id), 1);
  assert.equal(counts.get(admin.id), 0);
});

test("the overview counts users with a verified wallet, not the admins' own wallets", async () => {
  const before = (await api.call("GET", "/admin/dashboard", { token: admin.token })).body.data.walletUsers as number;
  await makeUser(api, { admin: true, wallet: true });
  await makeUser(api, { wallet: true });
  const answer = await api.call("GET", "/admin/dashboard", { token: admin.token });
  assert.equal(answer.status, 200);
  assert.equal(answer.body.data.walletUsers, before + 1);
});

test("the users and loans the admin reads have the shapes the app parses them with (domain/wire/)", async () => {
  const borrower = await makeUser(api, { kyc: "approved", wallet: true });
  const requested = await api.call("POST", "/loans/request", { token: borrower.token, body: validRequest });
  assert.equal(requested.status, 201, requested.body?.message);
  assert.equal(wireLoanSchema.parse(requested.body.data).user._id, borrower.id);
  const users = await api.call("GET", "/admin/users?limit=100", { token: admin.token });
  const listed = (users.body.data.users as unknown[]).map((u) => wireUserSchema.parse(u));
  assert.ok(listed.some((u) => u._id === borrower.id && u.kycStatus === "approved"));
  const loans = await api.call("GET", `/admin/loans?search=${encodeURIComponent(borrower.email)}`, { token: admin.token });
  assert.deepEqual(
    wireLoanPageSchema.parse(loans.body.data).loans.map((l) => l._id),
    [requested.body.data._id],
  );
});

test("an admin's view of one user lists that user's loans and no one else's", async () => {
  const borrower = await makeUser(api, { kyc: "approved", wallet: true });
  const other = await makeUser(api, { kyc: "approved", wallet: true });
  const own = await api.call("POST", "/loans/request", { token: borrower.token, body: validRequest });
  assert.equal(own.status, 201, own.body?.message);
  const foreign = await api.call("POST", "/loans/request", { token: other.token, body: validRequest });
  assert.equal(foreign.status, 201, foreign.body?.message);
  const detail = await api.call("GET", `/admin/users/${borrower.id}`, { token: admin.token });
  assert.equal(detail.status, 200);
  assert.equal(detail.body.data._id, borrower.id);
  assert.deepEqual(
    detail.body.data.loans.map((l: { _id: string }) => l._id),
    [own.body.data._id],
  );
});

test("an admin's view of an unknown user is 404 'User not found'", async () => {
  for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
    const answer = await api.call("GET", `/admin/users/${id}`, { token: admin.token });
    assert.equal(answer.status, 404, id);
    assert.equal(answer.body.message, "User not found");
  }
});

test("the overview shows each admin their own system alerts, not another admin's", async () => {
  const first = await makeUser(api, { admin: true });
  const second = await makeUser(api, { admin: true });
  const [mine] = await api.database.db.insert(notifications).values({ userId: first.id, type: "system_alert", title: "Mint failed", message: "Loan #1 could not be minted" }).returning();
  await api.database.db.insert(notifications).values([
    { userId: second.id, type: "system_alert", title: "Mint failed", message: "Loan #2 could not be minted" },
    { userId: first.id, type: "loan_status", title: "Loan approved", message: "Not an alert" },
  ]);
  const answer = await api.call("GET", "/admin/dashboard", { token: first.token });
  assert.equal(answer.status, 200);
  assert.deepEqual(
    answer.body.data.systemAlerts.map((a: { _id: string; message: string }) => [a._id, a.message]),
    [[mine.id, "Loan #1 could not be minted"]],
  );
});

test("the admin users search takes % and _ as text, not as wildcards", async () => {
  const percent = await makeUser(api, { firstName: "Per%cent" });
  const underscore = await makeUser(api, { firstName: "Under_score" });
  const names = async (search: string) => {
    const answer = await api.call("GET", `/admin/users?limit=100&search=${encodeURIComponent(search)}`, { token: admin.token });
    assert.equal(answer.status, 200);
    return (answer.body.data.users as { _id: string }[]).map((u) => u._id);
  };
  assert.deepEqual(await names("%"), [percent.id]);
  assert.deepEqual(await names("r_s"), [underscore.id]);
  assert.deepEqual(await names("per%c"), [percent.id]);
});
