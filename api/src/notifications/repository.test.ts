// Who gets a notice, checked at the repository with exact ids: a query that picks one user too many or too
// few sends another user's loan or listing news to the wrong people, and the route tests cannot see that.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { notifications, users } from "#db/schema";
import { createTestDatabase, type TestDatabase } from "#db/testing";
import { createNotificationsRepository, type NotificationsRepository } from "./repository";
import { NOTIFICATION_TEXTS } from "./texts";

let database: TestDatabase;
let repository: NotificationsRepository;
const ids: Record<string, string> = {};

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

  it("stores one notice per named user and none when nobody is named", async () => {
    assert.deepEqual(await repository.insertFor([], NOTIFICATION_TEXTS.kycApproved()), []);
    const rows = await repository.insertFor([ids.investor, ids.newcomer], NOTIFICATION_TEXTS.loanFunded("5000", "42"));
    assert.deepEqual(sorted(rows.map((row) => row.userId)), idsOf("investor", "newcomer"));
    assert.deepEqual(rows.map((row) => [row.type, row.link, row.read]), [["loan_funded", "/nft/42", false], ["loan_funded", "/nft/42", false]]);
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
    assert.deepEqual(unread.rows.map((row) => row.id), [unreadOne.id]);
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
    assert.deepEqual(deleted.map((row) => row.id), [rows[0].id]);
    const left = await database.db.select({ id: notifications.id }).from(notifications);
    assert.deepEqual(left.map((row) => row.id), [rows[1].id]);
    await repository.deleteIds([rows[1].id]);
  });
});
