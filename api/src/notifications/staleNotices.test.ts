// Stale notices: an "Offer received" whose offer is gone and an admin's review request that was decided are listed
// as done and leave the unread count, without anyone writing to the notice when its subject resolves.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import type { Db } from "#db/connect";
import { chainNotes, chainOrderCancellations, chainOrderCounters, chainOrderFills, loans, notifications, orders, type NewOrderRow } from "#db/schema";
import { makeUser, validRequest, type TestUser } from "#testing/loanStack";
import { createOrderAnnouncer, type OrderAnnouncer } from "../orders/announce";
import { startTestApi, type TestApi } from "../testing/harness";
import { createNotificationsRepository } from "./repository";
import { NO_LATE_FEES } from "../chain/lateFeeParams";

const USD = 1_000_000n;
const CHAIN = 31337;
const NOW = 1_800_000_000n;
let api: TestApi;
let db: Db;
let announcer: OrderAnnouncer;
let holder: TestUser;
let admin: TestUser;
let borrower: TestUser;
let salt = 1n;
let offerers = 1;

before(async () => {
  api = await startTestApi();
  db = api.database.db;
  [holder, admin, borrower] = await Promise.all([makeUser(api, { kyc: "approved", wallet: true }), makeUser(api, { admin: true }), makeUser(api, { kyc: "approved", wallet: true })]);
  const wallet = holder.row.walletAddress!;
  await db.insert(chainNotes).values({
    chainId: CHAIN,
    tokenId: 41n,
    owner: wallet,
    holder: wallet,
    borrower: `0x${"d".repeat(40)}`,
    principal: 1_000n * USD,
    rateBps: 1200,
    termMonths: 12,
    startTime: Number(NOW),
    originTxHash: "0x01",
    originBlock: 1,
    updatedBlock: 1,
  });
  announcer = createOrderAnnouncer({ db, kv: api.kv, chainId: CHAIN, notifier: api.server.notifier, notifications: createNotificationsRepository(db), fees: async () => NO_LATE_FEES });
});
after(async () => {
  await api.close();
});

/** A fresh offerer's offer on note #41, stored and announced as the orders route does; answers its row and the holder's notice. */
async function offer(values: Partial<NewOrderRow> = {}) {
  const signer = `0x${(offerers++).toString(16).padStart(40, "0")}`;
  const hash = `0x${(salt++).toString(16).padStart(64, "0")}`;
  const far = BigInt(Math.floor(Date.now() / 1000)) + 30n * 86_400n;
  const [row] = await db
    .insert(orders)
    .values({ chainId: CHAIN, kind: "offer", signer, tokenId: 41n, parBps: 9_500, cap: 2_000n * USD, changes: 0n, expiry: far, salt, counter: 0n, signature: "0x", ...values, hash })
    .returning();
  await announcer.stored(row, NOW);
  const [notice] = await db.select().from(notifications).where(eq(notifications.aboutOrder, hash));
  assert.ok(notice, "the holder was told of the offer, naming it");
  assert.equal(notice.userId, holder.id);
  return { row, notice };
}

const fill = (hash: string, seller: string, tokenId = 41n) =>
  db
    .insert(chainOrderFills)
    .values({ chainId: CHAIN, txHash: `0x${hash.slice(-8)}`, logIndex: 0, blockNumber: 2, orderHash: hash, tokenId, seller, buyer: `0x${"b".repeat(40)}`, price: 950n * USD, fee: 0n });

async function listed(user: TestUser, query = "") {
  const answer = await api.call("GET", `/notifications${query}`, { token: user.token });
  assert.equal(answer.status, 200, answer.body.message);
  const byId = new Map<string, { done: boolean; read: boolean }>(answer.body.data.notifications.map((n: { _id: string; done: boolean; read: boolean }) => [n._id, n]));
  return { byId, ids: [...byId.keys()], unreadCount: answer.body.data.unreadCount as number };
}

describe("an Offer received notice", () => {
  test("stays open and unread while its offer is open, and is done once the holder accepts it (a fill)", async () => {
    const { row, notice } = await offer();
    let list = await listed(holder);
    assert.equal(list.byId.get(notice.id)?.done, false);
    const unreadBefore = list.unreadCount;
    await fill(row.hash, holder.row.walletAddress!);
    list = await listed(holder);
    assert.deepEqual(list.byId.get(notice.id), { ...list.byId.get(notice.id), done: true, read: false });
    assert.equal(list.unreadCount, unreadBefore - 1, "a done notice is not counted unread");
    assert.ok(!(await listed(holder, "?unreadOnly=true")).ids.includes(notice.id), "nor listed as unread");
  });

  test("is done once its offer is cancelled on-chain, by a counter bump, or judged cancelled, filled or expired by the API", async () => {
    const cancelled = await offer();
    await db.insert(chainOrderCancellations).values({ chainId: CHAIN, txHash: "0xc1", logIndex: 0, blockNumber: 3, signer: cancelled.row.signer, orderHash: cancelled.row.hash });
    const bumped = await offer();
    await db.insert(chainOrderCounters).values({ chainId: CHAIN, signer: bumped.row.signer, counter: 1n, updatedBlock: 3 });
    const judged = await Promise.all((["cancelled", "filled", "expired"] as const).map(async (status) => ({ status, ...(await offer()) })));
    for (const { row, status } of judged) await db.update(orders).set({ status }).where(eq(orders.hash, row.hash));
    const pastExpiry = await offer({ expiry: 1_000n });
    const open = await offer();

    const { byId } = await listed(holder);
    for (const { notice } of [cancelled, bumped, ...judged, pastExpiry]) assert.equal(byId.get(notice.id)?.done, true, notice.id);
    assert.equal(byId.get(open.notice.id)?.done, false);
  });

  test("of an offer on any matching note is done when the holder sold this note into it, not when it bought another", async () => {
    const matching = { kind: "matchingOffer" as const, tokenId: null, parBps: 9_800, cap: null, changes: null, minRateBps: 0, minTermLeft: 0n, minOutstanding: 0n, budget: 5_000n * USD };
    const elsewhere = await offer(matching);
    await fill(elsewhere.row.hash, `0x${"e".repeat(40)}`, 42n);
    const mine = await offer(matching);
    await fill(mine.row.hash, holder.row.walletAddress!.toUpperCase().replace("0X", "0x"));
    const { byId } = await listed(holder);
    assert.equal(byId.get(elsewhere.notice.id)?.done, false, "another holder's sale leaves this one's offer open");
    assert.equal(byId.get(mine.notice.id)?.done, true);
  });
});

describe("an admin's new loan request notice", () => {
  test("is done once the request is rejected, and leaves the bell's unread count; a pending one stays unread", async () => {
    const decided = await api.call("POST", "/loans/request", { token: borrower.token, body: validRequest });
    const waiting = await api.call("POST", "/loans/request", { token: borrower.token, body: validRequest });
    assert.equal(decided.status, 201, decided.body.message);
    assert.equal(waiting.status, 201, waiting.body.message);
    const noticeOf = async (loanId: string) => {
      const [row] = await db.select().from(notifications).where(eq(notifications.aboutLoan, loanId));
      assert.equal(row?.userId, admin.id);
      return row.id;
    };
    const [decidedNotice, waitingNotice] = [await noticeOf(decided.body.data._id), await noticeOf(waiting.body.data._id)];
    const before = await listed(admin);
    assert.equal(before.byId.get(decidedNotice)?.done, false);

    const rejected = await api.call("PUT", `/admin/loans/${decided.body.data._id}/reject`, { token: admin.token, body: { rejectionReason: "Not now" } });
    assert.equal(rejected.status, 200, rejected.body.message);
    const after = await listed(admin);
    assert.equal(after.byId.get(decidedNotice)?.done, true);
    assert.equal(after.byId.get(waitingNotice)?.done, false);
    assert.equal(after.unreadCount, before.unreadCount - 1);
    assert.deepEqual(after.unreadCount, [...after.byId.values()].filter((n) => !n.read && !n.done).length);
  });

  test("is done once the request is approved, whether or not the admin read it", async () => {
    const approved = await api.call("POST", "/loans/request", { token: borrower.token, body: validRequest });
    // Approval funds on-chain; what makes the notice done is only that the loan left pending.
    await db.update(loans).set({ status: "approved" }).where(eq(loans.id, approved.body.data._id));
    const [notice] = await db.select().from(notifications).where(eq(notifications.aboutLoan, approved.body.data._id));
    const read = await api.call("PUT", `/notifications/${notice.id}/read`, { token: admin.token });
    assert.deepEqual([read.body.data.read, read.body.data.done], [true, true]);
  });
});
