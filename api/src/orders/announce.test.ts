import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import type { Db } from "#db/connect";
import { chainNotes, notifications, orders, type NewOrderRow } from "#db/schema";
import { createNotificationsRepository } from "../notifications/repository";
import { account, type Account } from "../realtime/testing";
import { startTestApi, type TestApi } from "../testing/harness";
import { createOrderAnnouncer, type OrderAnnouncer } from "./announce";
import { NO_LATE_FEES } from "../chain/lateFeeParams";

const USD = 1_000_000n;
const wallet = (c: string) => "0x" + c.repeat(40);
let api: TestApi;
let db: Db;
let announcer: OrderAnnouncer;
let holder: Account;
let buyer: Account;
let other: Account;
const NOW = 1_800_000_000n;
let salt = 1n;

before(async () => {
  api = await startTestApi();
  db = api.database.db;
  const call = api.call.bind(api);
  [holder, buyer, other] = await Promise.all([
    account(call, db, { wallet: wallet("a"), kyc: "approved" }),
    account(call, db, { wallet: wallet("b"), kyc: "approved" }),
    account(call, db, { wallet: wallet("c"), kyc: "approved" }),
  ]);
  const note = { chainId: 31337, borrower: wallet("d"), principal: 1_000n * USD, termMonths: 12, startTime: Number(NOW), originTxHash: "0x01", originBlock: 1, updatedBlock: 1 };
  await db.insert(chainNotes).values([
    { ...note, tokenId: 41n, owner: wallet("a"), holder: wallet("a"), rateBps: 1200 },
    { ...note, tokenId: 42n, owner: wallet("c"), holder: wallet("c"), rateBps: 800 },
  ]);
  announcer = createOrderAnnouncer({ db, kv: api.kv, chainId: 31337, notifier: api.server.notifier, notifications: createNotificationsRepository(db), fees: async () => NO_LATE_FEES });
});
after(async () => {
  await api.close();
});

async function store(values: Partial<NewOrderRow> & Pick<NewOrderRow, "kind" | "signer">) {
  const hash = "0x" + (salt++).toString(16).padStart(64, "0");
  const [row] = await db
    .insert(orders)
    .values({ chainId: 31337, expiry: NOW + 86_400n, salt, counter: 0n, signature: "0x" + "11".repeat(65), ...values, hash })
    .returning();
  await announcer.stored(row, NOW);
  return row;
}

/** Who was told what, oldest first, of one notification type. */
async function told(type: string): Promise<[string, string][]> {
  const rows = await db.select().from(notifications).where(eq(notifications.type, type));
  return rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.userId.localeCompare(b.userId)).map((row) => [row.userId, row.message]);
}

/**
 * Prices are the dirty par price at NOW, the notes' first day: parBps of the principal plus a day's interest, paid in
 * full whatever the bps (note #41, $1,000 at 12%: $10 a month, $0.33 a day; note #42, $1,000 at 8%: $0.22 a day).
 */
describe("announcing a stored order", () => {
  test("an offer on a note is a notice for its holder only, at what it pays today", async () => {
    await store({ kind: "offer", signer: wallet("b"), tokenId: 41n, parBps: 9_500, cap: 2_000n * USD, changes: 0n });
    assert.deepEqual(await told("offer_received"), [[holder.id, "New offer on note #41: $950.33 today."]]);
    await db.delete(notifications);
  });

  test("a matching offer is a notice for the holder of each active note it fits, not for a note outside its ranges nor for its signer", async () => {
    await store({
      kind: "matchingOffer",
      signer: wallet("e"),
      parBps: 9_800,
      minRateBps: 1_000,
      maxRateBps: null,
      minTermLeft: 0n,
      maxTermLeft: null,
      minOutstanding: 0n,
      maxOutstanding: null,
      budget: 5_000n * USD,
    });
    assert.deepEqual(await told("offer_received"), [[holder.id, "An offer on any matching note fits note #41: $980.33 today."]]);
    await db.delete(notifications);
    // Both notes fit when the rate range opens; the signer's own note (once it holds one) never tells them.
    await store({
      kind: "matchingOffer",
      signer: wallet("c"),
      parBps: 10_000,
      minRateBps: 0,
      maxRateBps: null,
      minTermLeft: 0n,
      maxTermLeft: null,
      minOutstanding: 0n,
      maxOutstanding: null,
      budget: 5_000n * USD,
    });
    assert.deepEqual(await told("offer_received"), [[holder.id, "An offer on any matching note fits note #41: $1,000.33 today."]]);
    await db.delete(notifications);
  });

  test("two offers by one offerer on one note the same day make one notice, another offerer's still makes its own", async () => {
    const offer = { kind: "offer" as const, tokenId: 41n, parBps: 9_000, cap: 2_000n * USD, changes: 0n };
    await store({ ...offer, signer: wallet("f") });
    await store({ ...offer, signer: wallet("f"), parBps: 9_100 });
    await store({
      kind: "matchingOffer",
      signer: wallet("f"),
      parBps: 9_200,
      minRateBps: 1_000,
      maxRateBps: null,
      minTermLeft: 0n,
      maxTermLeft: null,
      minOutstanding: 0n,
      maxOutstanding: null,
      budget: 5_000n * USD,
    });
    await store({ ...offer, signer: wallet("9") });
    assert.deepEqual(await told("offer_received"), [
      [holder.id, "New offer on note #41: $900.33 today."],
      [holder.id, "New offer on note #41: $900.33 today."],
    ]);
    await db.delete(notifications);
  });

  test("a matching offer tells nothing to the holder of a note whose price is above what is left of its budget", async () => {
    const dear = { chainId: 31337, borrower: wallet("d"), principal: 3_000n * USD, termMonths: 12, startTime: Number(NOW), originTxHash: "0x02", originBlock: 1, updatedBlock: 1 };
    await db.insert(chainNotes).values({ ...dear, tokenId: 43n, owner: wallet("b"), holder: wallet("b"), rateBps: 1_000 });
    // $3,500 signed, $1,000 already spent: the $1,000 notes fit what is left, the $3,000 one does not.
    const ranges = { minRateBps: 0, maxRateBps: null, minTermLeft: 0n, maxTermLeft: null, minOutstanding: 0n, maxOutstanding: null };
    await store({ kind: "matchingOffer", signer: wallet("8"), parBps: 10_000, ...ranges, budget: 3_500n * USD, filled: 1_000n * USD });
    const notices = await told("offer_received");
    assert.deepEqual(notices.map(([id]) => id).sort(), [holder.id, other.id].sort());
    assert.ok(!notices.some(([id]) => id === buyer.id), "nothing for the $3,000 note");
    await db.delete(notifications);
    await db.delete(chainNotes).where(eq(chainNotes.tokenId, 43n));
  });

  test("a listing is news for every investor but its seller", async () => {
    await store({ kind: "listing", signer: wallet("a"), tokenId: 41n, parBps: 10_000, changes: 0n });
    const notices = await told("nft_listed");
    assert.deepEqual(notices.map(([id]) => id).sort(), [buyer.id, other.id].sort());
    assert.ok(notices.every(([, message]) => message === "New NFT loan available: #41 ($1,000.33)"));
    assert.deepEqual(await told("offer_received"), []);
    await db.delete(notifications);
  });

  test("an order not open (stored already lapsed) tells no one", async () => {
    await store({ kind: "offer", signer: wallet("b"), tokenId: 41n, price: 900n * USD, changes: 5n, status: "lapsed" });
    assert.deepEqual(await told("offer_received"), []);
  });
});
