import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import type { Db } from "#db/connect";
import { loans, nftMetadata, orders } from "#db/schema";
import { createNotificationsRepository } from "../notifications/repository";
import { startTestApi, type TestApi } from "../testing/harness";
import { startOutboxDelivery } from "./outbox";
import type { Publisher } from "./publisher";
import { account, insertOutbox, openSocket, record, settle, type Account } from "./testing";

let api: TestApi;
let db: Db;
let borrower: Account;
let investor: Account;
let admin: Account;
const sockets: Socket[] = [];
const BORROWER_WALLET = "0x" + "b".repeat(40);
const INVESTOR_WALLET = "0x" + "c".repeat(40);

before(async () => {
  api = await startTestApi();
  db = api.database.db;
  const call = api.call.bind(api);
  [borrower, investor, admin] = await Promise.all([
    account(call, db, { wallet: BORROWER_WALLET, kyc: "approved" }),
    account(call, db, { wallet: INVESTOR_WALLET, kyc: "approved" }),
    account(call, db, { admin: true }),
  ]);
});
after(async () => {
  for (const socket of sockets) socket.close();
  await api.close();
});

const open = async (token: string) => {
  const socket = await openSocket(api.url, token);
  sockets.push(socket);
  return socket;
};
const pending = async () => Number(((await db.execute(sql`select count(*) as n from outbox_deliveries where delivered_at is null`)) as unknown as { rows: { n: string }[] }).rows[0].n);

describe("outbox delivery", () => {
  test("pushes committed rows to their rooms in order, with the spec's funded text stored for the borrower", async () => {
    const socket = await open(borrower.token);
    const events = record(socket);
    await db.transaction(async (tx) => {
      await insertOutbox(tx as Db, [
        { event: "loan:funded", rooms: [`user:${borrower.id}`, "admins"], payload: { amount: "12500.5", nftId: "9", tokenId: "9", txHash: "0x01" } },
        { event: "loan:status", rooms: [`user:${borrower.id}`], payload: { status: "active", amount: "12500.5", tokenId: "9" } },
      ]);
    });
    const [status] = await events.count("loan:status", 1);
    assert.equal(status.status, "active");
    const names = events.events.map((event) => event.name).filter((name) => name !== "connection:confirmed");
    assert.deepEqual(names.slice(0, 2), ["loan:funded", "notification:new"], "the event, then its stored notice, then the next row");
    assert.equal(names[2], "loan:status");
    assert.equal(events.named("notification:new")[0].message, "Loan Funded! $12,500.50 transferred. NFT #9 minted.");
    const stored = await api.call("GET", "/notifications", { token: borrower.token });
    assert.equal(stored.body.data.notifications[0].message, "Loan Funded! $12,500.50 transferred. NFT #9 minted.");
    assert.equal(await pending(), 0);
  });

  test("sends nothing for a transaction that rolled back", async () => {
    const socket = await open(borrower.token);
    const events = record(socket);
    await assert.rejects(
      db.transaction(async (tx) => {
        await insertOutbox(tx as Db, [{ event: "loan:status", rooms: [`user:${borrower.id}`], payload: { status: "completed", amount: "1", tokenId: "77" } }]);
        throw new Error("the indexer's batch failed");
      }),
    );
    await api.server.outbox!.deliverNow();
    await settle(400);
    assert.deepEqual(events.named("loan:status"), []);
    const rows = (await db.execute(sql`select count(*) as n from notifications where message like '%#77%'`)) as unknown as { rows: { n: string }[] };
    assert.equal(Number(rows.rows[0].n), 0);
  });

  test("a new listing becomes a notice for every investor but the seller; a repayment one for the accounts involved", async () => {
    const investorSocket = await open(investor.token);
    const investorEvents = record(investorSocket);
    await investorSocket.timeout(2000).emitWithAck("subscribe:marketplace");
    await insertOutbox(db, [
      { event: "marketplace:update", rooms: ["marketplace", `user:${borrower.id}`], payload: { type: "listed", amount: "2000", nftId: "11", tokenId: "11" } },
      { event: "marketplace:update", rooms: ["marketplace", `user:${investor.id}`], payload: { type: "repaid", amount: "180.25", nftId: "11", tokenId: "11" } },
    ]);
    await investorEvents.count("marketplace:update", 2);
    const notes = await investorEvents.count("notification:new", 2);
    assert.deepEqual(
      notes.map((note) => note.message),
      ["New NFT loan available: #11 ($2,000.00)", "Repayment of $180.25 received for note #11."],
    );
    const sellerNotes = (await api.call("GET", "/notifications", { token: borrower.token })).body.data.notifications;
    assert.ok(!sellerNotes.some((note: { message: string }) => note.message.startsWith("New NFT loan available: #11")), "the seller is not told of their own listing");
    const adminNotes = (await api.call("GET", "/notifications", { token: admin.token })).body.data.notifications;
    assert.equal(adminNotes.length, 0, "admins have no KYC-approved wallet, so no listing notice");
  });

  test("a treasury listing of a borrower's own note is news for the other investors, not for her", async () => {
    const [loan] = await db
      .insert(loans)
      .values({ userId: borrower.id, amount: 12_000_000_000n, principal: 12_000_000_000n, purpose: "business", rateBps: 850, termMonths: 18, status: "active", mintStatus: "minted" })
      .returning();
    const tokenId = String(loan.loanNumber);
    const investorEvents = record(await open(investor.token));
    // The treasury lists: its wallet is no account's, so the row names no user room at all.
    await insertOutbox(db, [{ event: "marketplace:update", rooms: ["marketplace"], payload: { type: "listed", amount: "12000", nftId: tokenId, tokenId } }]);
    const [note] = await investorEvents.count("notification:new", 1);
    assert.equal(note.message, `New NFT loan available: #${tokenId} ($12,000.00)`);
    const borrowerNotes = (await api.call("GET", "/notifications", { token: borrower.token })).body.data.notifications;
    assert.ok(!borrowerNotes.some((n: { message: string }) => n.message.startsWith(`New NFT loan available: #${tokenId} `)), "the borrower is not offered her own loan");
  });

  test("a signed order's fill is a notice for its signer only: the seller of a listing, the buyer of an offer; an order the book never stored, none", async () => {
    const hash = (n: number) => "0x" + n.toString(16).padStart(64, "0");
    const signed = { chainId: 31337, expiry: 2_000_000_000n, salt: 1n, counter: 0n, signature: "0x" + "11".repeat(65) };
    await db.insert(orders).values([
      { ...signed, hash: hash(0x51), kind: "listing", signer: INVESTOR_WALLET, tokenId: 31n, parBps: 10_000 },
      { ...signed, hash: hash(0x52), kind: "offer", signer: BORROWER_WALLET, tokenId: 32n, price: 900_000_000n },
      { ...signed, hash: hash(0x53), kind: "matchingOffer", signer: INVESTOR_WALLET, parBps: 9_800 },
    ]);
    const both = ["marketplace", `user:${investor.id}`, `user:${borrower.id}`];
    const fill = (n: number, tokenId: string, amount: string, seller: string, buyer: string) => [
      { event: "marketplace:update", rooms: both, payload: { type: "sold", amount, nftId: tokenId, tokenId, orderHash: hash(n) } },
      { event: "orderbook:update", rooms: both, payload: { tokenId, hash: hash(n), status: "filled", amount, seller, buyer } },
    ];
    await insertOutbox(db, [
      ...fill(0x51, "31", "1000", INVESTOR_WALLET, BORROWER_WALLET),
      ...fill(0x52, "32", "900", INVESTOR_WALLET, BORROWER_WALLET),
      ...fill(0x53, "33", "980.5", BORROWER_WALLET, INVESTOR_WALLET),
      ...fill(0x54, "34", "700", BORROWER_WALLET, INVESTOR_WALLET),
    ]);
    await api.server.outbox!.deliverNow();
    const rows = await db.execute(sql`select user_id, title, message from notifications where message like '%note #3_%' order by message`);
    const notices = (rows as unknown as { rows: { user_id: string; title: string; message: string }[] }).rows.map((row) => [row.user_id, row.title, row.message]);
    assert.deepEqual(notices, [
      [investor.id, "Listing filled", "Your listing of note #31 was filled for $1,000.00."],
      [borrower.id, "Offer filled", "Your offer was filled: you bought note #32 for $900.00."],
      [investor.id, "Offer filled", "Your offer was filled: you bought note #33 for $980.50."],
    ]);
  });

  test("a row reverted before delivery is never sent, nor is its correction; a delivered one is corrected and its notice withdrawn", async () => {
    const socket = await open(borrower.token);
    const events = record(socket);
    const [delivered] = await insertOutbox(db, [{ event: "loan:funded", rooms: [`user:${borrower.id}`], payload: { amount: "3000", nftId: "21", tokenId: "21" } }]);
    await events.next("loan:funded");
    assert.equal(events.named("notification:new").at(-1).message, "Loan Funded! $3,000.00 transferred. NFT #21 minted.");

    // A reorg in one indexer transaction: the undelivered row is reverted before anyone claims it.
    let unseen = 0;
    await db.transaction(async (tx) => {
      [unseen] = await insertOutbox(tx as Db, [{ event: "loan:funded", rooms: [`user:${borrower.id}`], payload: { amount: "4000", nftId: "22", tokenId: "22" } }]);
      await tx.execute(sql`update chain_outbox set reverted = true where id in (${delivered}, ${unseen})`);
      await insertOutbox(tx as Db, [
        { event: "loan:funded", rooms: [`user:${borrower.id}`], payload: { amount: "3000", nftId: "21", tokenId: "21", reverted: true }, kind: "correction", correctsId: delivered },
        { event: "loan:funded", rooms: [`user:${borrower.id}`], payload: { amount: "4000", nftId: "22", tokenId: "22", reverted: true }, kind: "correction", correctsId: unseen },
      ]);
    });
    const correction = await events.next("loan:funded");
    assert.deepEqual(correction, { amount: "3000", nftId: "21", tokenId: "21", reverted: true });
    await settle(400);
    assert.equal(events.named("loan:funded").length, 2, "nothing about note 22");
    const messages = (await api.call("GET", "/notifications", { token: borrower.token })).body.data.notifications.map((n: { message: string }) => n.message);
    assert.ok(!messages.some((m: string) => m.includes("#21") || m.includes("#22")), "the reverted funding's notice is gone");
  });

  test("a moved NFT is named by its collection's name from the metadata cache, in the stored notice and the live event; without a name, by its short address", async () => {
    const named = "0x" + "d1".repeat(20);
    const unnamed = "0x" + "d2".repeat(20);
    // Another piece of the collection was read (the picker, a pledge): its name names this one too.
    await db.insert(nftMetadata).values([
      { chainId: 31337, collection: named, tokenId: 8n, collectionName: "LoanMint Demo Art", name: "LoanMint Demo Art #8", image: null },
      { chainId: 31337, collection: unnamed, tokenId: 4n, collectionName: null, name: null, image: null },
    ]);
    const events = record(await open(borrower.token));
    const moved = (collection: string, collateralId: string) => ({
      event: "collateral:update",
      rooms: [`user:${borrower.id}`],
      payload: { tokenId: "41", collection, collateralId, state: "locked", loanId: "33333333-3333-4333-8333-333333333333" },
    });
    await insertOutbox(db, [moved(named, "5"), moved(unnamed, "4")]);
    const [first, second] = await events.count("collateral:update", 2);
    assert.equal(first.collectionName, "LoanMint Demo Art");
    assert.equal(second.collectionName, null);
    const notices = await events.count("notification:new", 2);
    assert.deepEqual(
      notices.map((n) => n.message),
      ["Your LoanMint Demo Art #5 is held in escrow for loan #41 until it is repaid.", "Your NFT #4 (0xd2d2…d2d2) is held in escrow for loan #41 until it is repaid."],
    );
  });

  test("two claimers on one database deliver every row exactly once, in id order", async () => {
    await api.server.outbox!.stop();
    const sent: number[] = [];
    const publisher: Publisher = { emit: (_rooms, _name, payload) => sent.push((payload as { seq: number }).seq) };
    const notifications = createNotificationsRepository(db);
    const claimers = [0, 1].map(() => startOutboxDelivery({ db, kind: api.database.kind, publisher, notifications, pollMs: 20, batchSize: 7 }));
    const total = 300;
    let seq = 0;
    // Many small writer transactions while both claimers run, as the indexer commits batch after batch.
    for (let batch = 0; batch < 30; batch += 1) {
      await db.transaction(async (tx) => {
        await insertOutbox(
          tx as Db,
          Array.from({ length: total / 30 }, () => ({ event: "marketplace:update", rooms: ["marketplace"], payload: { type: "sold", amount: null, nftId: "1", seq: seq++ } })),
        );
      });
    }
    const deadline = Date.now() + 10_000;
    while (sent.length < total && Date.now() < deadline) await settle(20);
    await settle(200);
    await Promise.all(claimers.map((claimer) => claimer.stop()));
    assert.equal(sent.length, total, "each row once");
    assert.deepEqual(
      sent,
      [...sent].sort((a, b) => a - b),
      "in order",
    );
    assert.equal(await pending(), 0);
  });
});
