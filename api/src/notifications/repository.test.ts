// Who gets a notice, checked at the repository with exact ids: a query that picks one user too many or too
// few sends another user's loan or listing news to the wrong people, and the route tests cannot see that.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { loans, notifications, orders, users } from "#db/schema";
import { createTestDatabase, type TestDatabase } from "#db/testing";
import { createNotificationsRepository, type NotificationsRepository } from "./repository";
import { NOTIFICATION_TEXTS } from "./texts";

let database: TestDatabase;
let repository: NotificationsRepository;
const ids: Record<string, string> = {};
const wallets: Record<string, string> = {};

type Person = { role?: "user" | "admin"; kycStatus?: "none" | "pending" | "approved" | "rejected"; wallet?: boolean };
const people: Record<string, Person> = {
  adminWithWallet: { role: "admin", kycStatus: "approved", wallet: true },
  adminWithoutWallet: { role: "admin" },
  investor: { kycStatus: "approved", wallet: true },
  secondInvestor: { kycStatus: "approved", wallet: true },
  approvedWithoutWallet: { kycStatus: "approved" },
  pendingWithWallet: { kycStatus: "pending", wallet: true },
  rejectedWithWallet: { kycStatus: "rejected", wallet: true },
  newcomer: {},
};

before(async () => {
  database = await createTestDatabase();
  repository = createNotificationsRepository(database.db);
  let n = 0;
  for (const [name, person] of Object.entries(people)) {
    n += 1;
    const walletAddress = person.wallet ? `0x${n.toString(16).padStart(40, "0")}` : null;
    const [row] = await database.db
      .insert(users)
      .values({ firstName: name, lastName: "Test", role: person.role ?? "user", kycStatus: person.kycStatus ?? "none", walletAddress })
      .returning({ id: users.id });
    ids[name] = row.id;
    if (walletAddress) wallets[name] = walletAddress;
  }
});
after(async () => {
  await database.drop();
});

const sorted = (list: string[]) => [...list].sort();
const idsOf = (...names: string[]) => sorted(names.map((name) => ids[name]));

describe("the notifications repository", () => {
  it("names every admin, with or without a wallet, and nobody else as the admins to notify", async () => {
    assert.deepEqual(sorted(await repository.adminIds()), idsOf("adminWithWallet", "adminWithoutWallet"));
  });

  it("names exactly the users with approved KYC and a verified wallet as the investors to tell of a new listing", async () => {
    assert.deepEqual(sorted(await repository.investorIds()), idsOf("adminWithWallet", "investor", "secondInvestor"));
  });

  it("names the borrower of the loan whose number is the note's token id, and nobody for another number or a token id that is no number", async () => {
    await database.db.insert(loans).values([
      { loanNumber: 7001n, userId: ids.newcomer, amount: 1_000_000_000n, purpose: "Tools", rateBps: 1200, termMonths: 12 },
      { loanNumber: 7002n, userId: ids.investor, amount: 1_000_000_000n, purpose: "Stock", rateBps: 1200, termMonths: 12 },
    ]);
    assert.equal(await repository.borrowerOfNote("7001"), ids.newcomer);
    assert.equal(await repository.borrowerOfNote("7002"), ids.investor);
    assert.equal(await repository.borrowerOfNote("7003"), null);
    // A note of another contract may carry any id; one that is no number must not reach BigInt().
    assert.equal(await repository.borrowerOfNote("0x1b59"), null);
    await database.db.delete(loans);
  });

  it("names the account whose verified wallet signed an order, with the order's kind, found by its hash in any case", async () => {
    const order = (hash: string, kind: "listing" | "offer", signer: string) => ({ hash, chainId: 31337, kind, signer, expiry: 1n, salt: 1n, counter: 0n, signature: "0x" });
    const stranger = `0x${"e".repeat(40)}`;
    await database.db
      .insert(orders)
      .values([order(`0x${"ab".repeat(32)}`, "listing", wallets.investor), order(`0x${"cd".repeat(32)}`, "offer", wallets.pendingWithWallet), order(`0x${"ef".repeat(32)}`, "offer", stranger)]);
    // Stored lowercase: a hash written in capitals still finds its order.
    assert.deepEqual(await repository.orderSigner(`0x${"AB".repeat(32)}`), { kind: "listing", userId: ids.investor });
    assert.deepEqual(await repository.orderSigner(`0x${"cd".repeat(32)}`), { kind: "offer", userId: ids.pendingWithWallet });
    assert.deepEqual(await repository.orderSigner(`0x${"ef".repeat(32)}`), { kind: "offer", userId: null }, "a signer without an account is told nothing");
    assert.equal(await repository.orderSigner(`0x${"01".repeat(32)}`), null);
    await database.db.delete(orders);
  });

  it("stores one notice per named user and none when nobody is named", async () => {
    assert.deepEqual(await repository.insertFor([], NOTIFICATION_TEXTS.kycApproved()), []);
    const rows = await repository.insertFor([ids.investor, ids.newcomer], NOTIFICATION_TEXTS.loanFunded("5000", "42"));
    assert.deepEqual(sorted(rows.map((row) => row.userId)), idsOf("investor", "newcomer"));
    assert.deepEqual(
      rows.map((row) => [row.type, row.link, row.read]),
      [
        ["loan_funded", "/nft/42", false],
        ["loan_funded", "/nft/42", false],
      ],
    );
    const stored = await database.db.select({ userId: notifications.userId }).from(notifications);
    assert.deepEqual(sorted(stored.map((row) => row.userId)), idsOf("investor", "newcomer"));
    await repository.deleteIds(rows.map((row) => row.id));
  });

  it("pages only the owner's notices, and with unreadOnly only the owner's unread ones", async () => {
    const [readOne] = await repository.insertFor([ids.investor], NOTIFICATION_TEXTS.kycApproved());
    const [unreadOne] = await repository.insertFor([ids.investor], NOTIFICATION_TEXTS.loanRejected(null));
    const others = await repository.insertFor([ids.secondInvestor, ids.newcomer], NOTIFICATION_TEXTS.loanRejected(null));
    assert.equal((await repository.markRead(readOne.id, ids.investor))?.id, readOne.id);

    const all = await repository.page(ids.investor, { page: 1, limit: 20, unreadOnly: false });
    assert.deepEqual(sorted(all.rows.map((row) => row.id)), sorted([readOne.id, unreadOne.id]));
    assert.equal(all.total, 2);
    assert.equal(all.unread, 1);
    const unread = await repository.page(ids.investor, { page: 1, limit: 20, unreadOnly: true });
    assert.deepEqual(
      unread.rows.map((row) => row.id),
      [unreadOne.id],
    );
    assert.equal(unread.total, 1);
    assert.equal(unread.unread, 1);

    assert.equal(await repository.markRead(others[0].id, ids.investor), undefined, "another user's notice stays unread");
    assert.equal(await repository.markAllRead(ids.investor), 1);
    const stillUnread = await database.db.select({ id: notifications.id }).from(notifications).where(eq(notifications.read, false));
    assert.deepEqual(sorted(stillUnread.map((row) => row.id)), sorted(others.map((row) => row.id)));
    await repository.deleteIds([readOne.id, unreadOne.id, ...others.map((row) => row.id)]);
  });

  it("deletes exactly the notices named, and nothing when none is named", async () => {
    const rows = await repository.insertFor([ids.investor, ids.newcomer], NOTIFICATION_TEXTS.kycApproved());
    assert.deepEqual(await repository.deleteIds([]), []);
    const deleted = await repository.deleteIds([rows[0].id]);
    assert.deepEqual(
      deleted.map((row) => row.id),
      [rows[0].id],
    );
    const left = await database.db.select({ id: notifications.id }).from(notifications);
    assert.deepEqual(
      left.map((row) => row.id),
      [rows[1].id],
    );
    await repository.deleteIds([rows[1].id]);
  });
});
