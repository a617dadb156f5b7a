import { after, before, test } from "node:test";
import assert from "node:assert/strict";
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
  for (const [user, count] of [[borrower, 2], [other, 1]] as const) {
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
  assert.deepEqual(wireLoanPageSchema.parse(loans.body.data).loans.map((l) => l._id), [requested.body.data._id]);
});
