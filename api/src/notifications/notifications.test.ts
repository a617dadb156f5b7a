import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { asc, eq } from "drizzle-orm";
import { notifications } from "#db/schema";
import { startTestApi, type TestApi } from "../testing/harness";
import { account, type Account } from "../realtime/testing";
import { wireNotificationListSchema } from "#domain/wire/notification";
import { NOTIFICATION_TEXTS } from "./texts";

let api: TestApi;
let alice: Account;
let bob: Account;

before(async () => {
  api = await startTestApi();
  [alice, bob] = await Promise.all([account(api.call.bind(api), api.database.db), account(api.call.bind(api), api.database.db)]);
  // Stored one after another so "newest first" has a defined answer.
  await api.server.notifier.notifyUser(alice.id, NOTIFICATION_TEXTS.kycApproved());
  await api.server.notifier.notifyUser(alice.id, NOTIFICATION_TEXTS.loanApproved("5000", "loan-1"));
  await api.server.notifier.notifyUser(alice.id, NOTIFICATION_TEXTS.loanFunded("5000", "42"));
  await api.server.notifier.notifyUser(bob.id, NOTIFICATION_TEXTS.loanRejected(null));
});
after(async () => {
  await api.close();
});

describe("notifications routes", () => {
  test("need a signed-in user", async () => {
    assert.equal((await api.call("GET", "/notifications")).status, 401);
    assert.equal((await api.call("PUT", "/notifications/read-all")).status, 401);
  });

  test("list the caller's own notifications, newest first, with the spec's texts and the unread count", async () => {
    const answer = await api.call("GET", "/notifications", { token: alice.token });
    assert.equal(answer.status, 200);
    const { notifications, unreadCount, pagination } = answer.body.data;
    assert.deepEqual(
      notifications.map((n: { message: string }) => n.message),
      ["Loan Funded! $5,000.00 transferred. NFT #42 minted.", "Loan Approved! $5,000.00 has been approved.", "KYC Approved! You can now apply for loans."],
    );
    assert.equal(unreadCount, 3);
    assert.deepEqual(pagination, { page: 1, limit: 20, total: 3, totalPages: 1 });
    assert.deepEqual(Object.keys(notifications[0]).sort(), ["_id", "createdAt", "done", "isRead", "link", "message", "read", "title", "type"]);
    assert.equal(notifications[0].link, "/nft/42");
  });

  test("answer in the shape the app parses them with (domain/wire/notification.ts)", async () => {
    const answer = await api.call("GET", "/notifications", { token: alice.token });
    const list = wireNotificationListSchema.parse(answer.body.data);
    assert.equal(list.unreadCount, list.notifications.filter((n) => !n.isRead).length);
  });

  test("page with limit and page, and filter unread only", async () => {
    const second = await api.call("GET", "/notifications?page=2&limit=2", { token: alice.token });
    assert.equal(second.body.data.notifications.length, 1);
    assert.equal(second.body.data.notifications[0].type, "kyc_approved");
    assert.equal(second.body.data.pagination.totalPages, 2);
    const bogus = await api.call("GET", "/notifications?page=-3&limit=abc", { token: alice.token });
    assert.equal(bogus.status, 200, "nonsense paging falls back to the defaults");
    assert.equal(bogus.body.data.pagination.page, 1);
  });

  test("mark one as read for its owner only; another user's id answers 404 like a missing one", async () => {
    const mine = (await api.call("GET", "/notifications", { token: alice.token })).body.data.notifications[0];
    const stranger = await api.call("PUT", `/notifications/${mine._id}/read`, { token: bob.token });
    assert.equal(stranger.status, 404);
    assert.equal(stranger.body.message, "Notification not found");
    assert.equal((await api.call("PUT", "/notifications/not-a-uuid/read", { token: bob.token })).status, 404);
    assert.equal((await api.call("PUT", `/notifications/${crypto.randomUUID()}/read`, { token: alice.token })).status, 404);

    const read = await api.call("PUT", `/notifications/${mine._id}/read`, { token: alice.token });
    assert.equal(read.status, 200);
    assert.equal(read.body.data.read, true);
    const unread = await api.call("GET", "/notifications?unreadOnly=true", { token: alice.token });
    assert.equal(unread.body.data.unreadCount, 2);
    assert.ok(unread.body.data.notifications.every((n: { _id: string; read: boolean }) => n._id !== mine._id && !n.read));
  });

  test("read-all marks only the caller's notifications", async () => {
    const answer = await api.call("PUT", "/notifications/read-all", { token: alice.token });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.data.updated, 2);
    assert.equal((await api.call("GET", "/notifications", { token: alice.token })).body.data.unreadCount, 0);
    const bobs = await api.call("GET", "/notifications", { token: bob.token });
    assert.equal(bobs.body.data.unreadCount, 1);
    assert.equal(bobs.body.data.notifications[0].message, "Please contact support for details.");
  });

  test("unreadOnly lists exactly the caller's unread notifications, never another user's, with exact counts", async () => {
    // Two fresh users, each with read and unread notifications, so another user's unread rows exist to leak.
    const [carol, dave] = await Promise.all([account(api.call.bind(api), api.database.db), account(api.call.bind(api), api.database.db)]);
    for (const text of [NOTIFICATION_TEXTS.kycApproved(), NOTIFICATION_TEXTS.loanApproved("100", "l-1"), NOTIFICATION_TEXTS.loanFunded("100", "7")]) {
      await api.server.notifier.notifyUser(carol.id, text);
    }
    for (const text of [NOTIFICATION_TEXTS.kycApproved(), NOTIFICATION_TEXTS.loanRejected(null)]) await api.server.notifier.notifyUser(dave.id, text);
    const idsOf = async (userId: string) =>
      (await api.database.db.select({ id: notifications.id }).from(notifications).where(eq(notifications.userId, userId)).orderBy(asc(notifications.createdAt))).map((row) => row.id);
    const [carolOldest, carolMiddle, carolNewest] = await idsOf(carol.id);
    const [daveOldest, daveNewest] = await idsOf(dave.id);
    for (const [user, id] of [
      [carol, carolMiddle],
      [dave, daveOldest],
    ] as const) {
      assert.equal((await api.call("PUT", `/notifications/${id}/read`, { token: user.token })).status, 200);
    }

    const ids = (answer: { body: { data: { notifications: { _id: string }[] } } }) => answer.body.data.notifications.map((n) => n._id);
    const carolUnread = await api.call("GET", "/notifications?unreadOnly=true", { token: carol.token });
    assert.equal(carolUnread.status, 200);
    assert.deepEqual(ids(carolUnread), [carolNewest, carolOldest]);
    assert.equal(carolUnread.body.data.unreadCount, 2);
    assert.deepEqual(carolUnread.body.data.pagination, { page: 1, limit: 20, total: 2, totalPages: 1 });
    const daveUnread = await api.call("GET", "/notifications?unreadOnly=true", { token: dave.token });
    assert.deepEqual(ids(daveUnread), [daveNewest]);
    assert.equal(daveUnread.body.data.unreadCount, 1);
    assert.equal(daveUnread.body.data.pagination.total, 1);

    const carolAll = await api.call("GET", "/notifications?unreadOnly=false", { token: carol.token });
    assert.deepEqual(ids(carolAll), [carolNewest, carolMiddle, carolOldest]);
    assert.equal(carolAll.body.data.pagination.total, 3);
    const daveAll = await api.call("GET", "/notifications", { token: dave.token });
    assert.deepEqual(ids(daveAll), [daveNewest, daveOldest]);
  });
});
