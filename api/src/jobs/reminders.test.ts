import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { and, eq } from "drizzle-orm";
import { pino } from "pino";
import { encodeFunctionData, type Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { loanNoteAbi } from "#domain/abis";
import { DEV_ACCOUNTS } from "#domain/devAccounts";
import { displayUsd } from "#domain/money";
import { DAY_SECONDS, scheduleRows } from "#domain/schedule";
import { chainNotes, notifications, servicingReminders, type ReminderKind } from "#db/schema";
import { fund, makeUser, payPastDue, sendAs, startLoanStack, type LoanStack, type TestUser } from "#testing/loanStack";
import { startServer } from "../server";
import { reminderDate } from "../notifications/texts";
import { createReminderJob } from "./reminders";
import { createRemindersRepository } from "./remindersRepository";

/**
 * Servicing reminders on a real Postgres, a private anvil with the contracts and the real indexer: the chain's clock is
 * moved with evm_setNextBlockTimestamp, the reminder job ticks, and each reminder must appear once, at its moment,
 * whoever ticks and however often.
 */
describe("servicing reminders", () => {
  const DAY = DAY_SECONDS;
  let stack: LoanStack;
  let admin: TestUser, borrowerA: TestUser, borrowerB: TestUser, mutedBorrower: TestUser, holder: TestUser, depositor: TestUser, mutedHolder: TestUser;
  /** A: 12 months, held by `holder`. B: 1 month, in the vault for `depositor`. C: 12 months of a muted borrower, held by a muted holder. */
  const loan = { A: { id: "", tokenId: 0n, start: 0n }, B: { id: "", tokenId: 0n, start: 0n }, C: { id: "", tokenId: 0n, start: 0n } };
  const contracts = () => stack.deployment.contracts as Record<"loanNote" | "vault", Address>;
  const db = () => stack.api.database.db;
  const tick = () => stack.services.reminders.runOnce();

  async function synced() {
    await stack.indexer!.caughtUp();
    await stack.api.server.outbox!.deliverNow();
  }

  async function originate(borrower: TestUser, amount: string, termMonths: number) {
    const requested = await stack.api.call("POST", "/loans/request", { token: borrower.token, body: { amount, interestRate: 12, termMonths, purpose: "business" } });
    assert.equal(requested.status, 201, requested.body?.message);
    const approved = await stack.api.call("PUT", `/admin/loans/${requested.body.data._id}/approve`, { token: admin.token, body: {} });
    assert.equal(approved.status, 200, approved.body?.message);
    return { id: requested.body.data._id as string, tokenId: BigInt(requested.body.data.loanNumber) };
  }

  /** The treasury (the API's dev key on the local chain) hands the note to `to`. */
  async function treasuryGives(tokenId: bigint, to: TestUser) {
    const treasury = privateKeyToAccount(DEV_ACCOUNTS.treasury);
    const data = encodeFunctionData({ abi: loanNoteAbi, functionName: "transferFrom", args: [treasury.address, to.wallet!.address, tokenId] });
    await sendAs(stack, treasury, { to: contracts().loanNote, data });
  }

  /** The chain's next block at exactly `timestamp`, mined now. */
  async function travelTo(timestamp: bigint) {
    await stack.rpc("evm_setNextBlockTimestamp", [Number(timestamp)]);
    await stack.rpc("evm_mine", []);
  }

  const startOf = async (tokenId: bigint) => BigInt((await db().select({ start: chainNotes.startTime }).from(chainNotes).where(eq(chainNotes.tokenId, tokenId)))[0].start);
  const earliest = () => [loan.A.start, loan.B.start, loan.C.start].reduce((a, b) => (a < b ? a : b));
  const latest = () => [loan.A.start, loan.B.start, loan.C.start].reduce((a, b) => (a > b ? a : b));

  /** The reminders a user was sent, as their notifications page lists them. */
  const remindersOf = async (user: TestUser) =>
    (
      await db()
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, user.id), eq(notifications.type, "servicing_reminder")))
    ).map((n) => n.message);
  /** How many times `kind` was given for a loan (sent, or recorded for a muted recipient). */
  const given = async (loanId: string, kind: ReminderKind) =>
    (
      await db()
        .select()
        .from(servicingReminders)
        .where(and(eq(servicingReminders.loanId, loanId), eq(servicingReminders.kind, kind)))
    ).length;
  const count = (messages: string[], pattern: RegExp) => messages.filter((m) => pattern.test(m)).length;

  before(async () => {
    stack = await startLoanStack({ indexer: true });
    [admin, borrowerA, borrowerB, mutedBorrower, holder, depositor, mutedHolder] = await Promise.all([
      makeUser(stack.api, { admin: true }),
      ...Array.from({ length: 6 }, () => makeUser(stack.api, { kyc: "approved", wallet: true })),
    ]);
    for (const user of [borrowerA, borrowerB, mutedBorrower, holder, depositor, mutedHolder]) await fund(stack, user.wallet!.address, 0n);
    for (const user of [mutedBorrower, mutedHolder]) {
      const muted = await stack.api.call("PUT", "/users/profile", { token: user.token, body: { remindersMuted: true } });
      assert.equal(muted.status, 200, muted.body?.message);
    }
    Object.assign(loan.A, await originate(borrowerA, "6000", 12));
    Object.assign(loan.B, await originate(borrowerB, "2000", 1));
    Object.assign(loan.C, await originate(mutedBorrower, "3000", 12));
    await treasuryGives(loan.A.tokenId, holder);
    await treasuryGives(loan.B.tokenId, depositor);
    await treasuryGives(loan.C.tokenId, mutedHolder);
    // Into the vault: the depositor stays the note's holder for repayments and reminders.
    await sendAs(stack, depositor.wallet!, {
      to: contracts().loanNote,
      data: encodeFunctionData({ abi: loanNoteAbi, functionName: "safeTransferFrom", args: [depositor.wallet!.address, contracts().vault, loan.B.tokenId] }),
    });
    await synced();
    for (const key of ["A", "B", "C"] as const) loan[key].start = await startOf(loan[key].tokenId);
  });

  after(async () => {
    await stack?.close();
  });

  it("reminds no one of anything while every due date is more than three days away", async () => {
    await travelTo(latest() + 27n * DAY - 60n);
    await tick();
    for (const user of [borrowerA, borrowerB, mutedBorrower, holder, depositor, mutedHolder]) assert.deepEqual(await remindersOf(user), [], user.email);
  });

  it("reminds the borrower of an installment three days before its due date, once however often the job ticks", async () => {
    await travelTo(latest() + 27n * DAY);
    await tick();
    await tick();
    const [first] = scheduleRows({ principal: 6_000_000_000n, rateBps: 1200, termMonths: 12, start: loan.A.start });
    assert.deepEqual(await remindersOf(borrowerA), [`Installment 1 of loan #${loan.A.tokenId}, ${displayUsd(first.payment)}, is due on ${reminderDate(loan.A.start + 30n * DAY)}.`]);
    assert.equal(count(await remindersOf(borrowerB), /^Installment 1 of loan #\d+, \$[\d,.]+, is due on /), 1);
    assert.deepEqual(await remindersOf(holder), [], "a due date is the borrower's business only");
  });

  it("tells the borrower of a missed installment and the holder that the note went late, only once the due date has passed", async () => {
    await travelTo(earliest() + 30n * DAY - 60n);
    await tick();
    assert.equal(count(await remindersOf(borrowerA), /was due on/), 0, "not before the due date");
    assert.deepEqual(await remindersOf(holder), []);
    assert.equal(count(await remindersOf(borrowerB), /can be marked defaulted/), 0, "no default warning yet");

    await travelTo(latest() + 30n * DAY);
    await tick();
    await tick();
    assert.equal(count(await remindersOf(borrowerA), new RegExp(`^Installment 1 of loan #${loan.A.tokenId} was due on .+ and is unpaid: \\$[\\d,.]+ is past due\\.$`)), 1);
    assert.deepEqual(await remindersOf(holder), [`Note #${loan.A.tokenId} you hold is late: installment 1, due on ${reminderDate(loan.A.start + 30n * DAY)}, is unpaid.`]);
    assert.deepEqual(
      await remindersOf(depositor),
      [`Note #${loan.B.tokenId} you hold is late: installment 1, due on ${reminderDate(loan.B.start + 30n * DAY)}, is unpaid.`],
      "the vault's depositor hears as its holder",
    );
  });

  it("warns the borrower thirty days before a default becomes possible, once", async () => {
    const defaultFrom = loan.B.start + 30n * DAY + (await gracePeriod());
    const warnFrom = defaultFrom - 30n * DAY;
    const now = await chainTime();
    await travelTo(warnFrom > now ? warnFrom : now + 1n);
    await tick();
    await tick();
    assert.deepEqual(
      (await remindersOf(borrowerB)).filter((m) => /can be marked defaulted/.test(m)),
      [`Loan #${loan.B.tokenId} can be marked defaulted from ${reminderDate(defaultFrom)} unless it is repaid by then.`],
    );
    assert.equal(count(await remindersOf(borrowerA), /can be marked defaulted/), 0, "a loan far from maturity is not warned");
  });

  it("tells borrower and holder once that the loan is current again when the borrower pays what is past due", async () => {
    assert.ok(await payPastDue(stack, borrowerA.wallet!, loan.A.tokenId));
    await synced();
    await tick();
    await tick();
    assert.equal(count(await remindersOf(borrowerA), /is current again: everything past due is paid\.$/), 1);
    assert.deepEqual(
      (await remindersOf(holder)).filter((m) => /current again/.test(m)),
      [`Note #${loan.A.tokenId} you hold is current again: its borrower paid everything past due.`],
    );
    assert.equal(await given(loan.B.id, "cured"), 0, "a loan still late is not cured");
  });

  it("sends nothing twice across a restart: a new API process on the same database gives only what is new", async () => {
    stack.services.reminders.stop();
    await travelTo(loan.A.start + 57n * DAY);
    const config = { ...stack.api.config, reminderIntervalMs: 100 };
    const restarted = await startServer({ port: 0, config, database: stack.api.database, kv: stack.api.kv, logger: pino({ level: "silent" }), staticDir: join(config.dataDir, "no-app") });
    try {
      const deadline = Date.now() + 15_000;
      while ((await given(loan.A.id, "due_soon")) < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(await given(loan.A.id, "due_soon"), 2, "the new process's own timer gave installment 2's reminder");
      await new Promise((resolve) => setTimeout(resolve, 500)); // a few more ticks of the new process
    } finally {
      await restarted.close();
    }
    await tick(); // and the old one once more
    const dueSoon = (await remindersOf(borrowerA)).filter((m) => / is due on /.test(m));
    assert.equal(dueSoon.length, 2, "installment 1 before the restart, installment 2 after it");
    assert.match(
      dueSoon.find((m) => m.startsWith("Installment 2"))!,
      new RegExp(`^Installment 2 of loan #${loan.A.tokenId}, `),
    );
    for (const kind of ["missed", "holder_late", "cured", "holder_cured"] as const) assert.equal(await given(loan.A.id, kind), 1, kind);
    assert.equal(await given(loan.B.id, "default_soon"), 1);
  });

  it("tells the borrower and the vault's depositor of the default once, by the loan's status notice and no reminder", async () => {
    const defaultFrom = loan.B.start + 30n * DAY + (await gracePeriod());
    await travelTo(defaultFrom + 1n);
    await tick();
    const { defaulted } = await stack.services.watcher.runOnce();
    assert.ok(defaulted >= 1);
    await synced();
    await tick();
    await tick();
    const notice = new RegExp(`^Loan #${loan.B.tokenId} \\(\\$2,000\\.00\\) was marked as defaulted\\.$`);
    for (const user of [borrowerB, depositor]) {
      const messages = (await db().select().from(notifications).where(eq(notifications.userId, user.id))).map((n) => n.message);
      assert.equal(count(messages, notice), 1, user.email);
      assert.equal(count(messages, /in default/), 0, `${user.email}: no second notice of the same default`);
    }
    assert.equal(await given(loan.B.id, "defaulted"), 0);
    assert.equal(await given(loan.B.id, "holder_defaulted"), 0);
  });

  it("tells the holder of a second late spell, keyed by the installment that began it", async () => {
    // By now loan A's installment 2 has fallen due unpaid too.
    assert.equal(count(await remindersOf(holder), /you hold is late: installment 2,/), 1);
    assert.equal(await given(loan.A.id, "holder_late"), 2);
  });

  it("gives a muted borrower and a muted holder no reminders, while their other notices still come", async () => {
    for (const user of [mutedBorrower, mutedHolder]) assert.deepEqual(await remindersOf(user), [], user.email);
    for (const kind of ["due_soon", "missed", "holder_late"] as const) assert.ok((await given(loan.C.id, kind)) >= 1, `${kind} is recorded as given, never sent later`);
    const rows = await db().select().from(servicingReminders).where(eq(servicingReminders.loanId, loan.C.id));
    assert.ok(rows.every((row) => row.notificationId === null));
    const others = await db().select().from(notifications).where(eq(notifications.userId, mutedBorrower.id));
    assert.ok(
      others.some((n) => n.type === "loan_funded"),
      "the loan's funding notice still came",
    );
  });

  it("gives a reminder once when several API processes tick at the same moment", async () => {
    await travelTo(latest() + 87n * DAY);
    const { chain, notifier, config } = stack.services;
    const others = Array.from({ length: 3 }, () => createReminderJob({ repo: createRemindersRepository(db(), config.chainId), chain, notifier }));
    const results = await Promise.all([tick(), ...others.map((job) => job.runOnce())]);
    const total = results.reduce((sum, r) => ({ given: sum.given + r.given, sent: sum.sent + r.sent }), { given: 0, sent: 0 });
    assert.deepEqual(total, { given: 4, sent: 2 }, "installment 3's reminder and installment 2's late fee for A (sent) and for the muted C (recorded), between all four");
    assert.equal(count(await remindersOf(borrowerA), /^Installment 3 of loan #\d+, .+ is due on /), 1);
    assert.equal(await given(loan.A.id, "due_soon"), 3);
  });

  it("tells the borrower once that a late fee applies, with what is past due including it", async () => {
    const [fees, count_] = await stack.chain.readContract({ address: contracts().loanNote, abi: loanNoteAbi, functionName: "lateFeesOf", args: [loan.A.tokenId] });
    assert.equal(count_, 1n, "installment 2 is unpaid past its late-fee grace period; installment 1 was paid in time");
    const due = await stack.chain.readContract({ address: contracts().loanNote, abi: loanNoteAbi, functionName: "amountDueNow", args: [loan.A.tokenId] });
    await tick();
    assert.deepEqual(
      (await remindersOf(borrowerA)).filter((m) => /late fees of/.test(m)),
      [`Installment 2 of loan #${loan.A.tokenId} is unpaid past its late-fee grace period: late fees of ${displayUsd(fees)} apply, and ${displayUsd(due)} is past due with them.`],
    );
    assert.equal(await given(loan.A.id, "late_fee"), 1);
    assert.equal(await given(loan.C.id, "late_fee"), 2, "the muted borrower's fees are recorded as given, one per installment");
  });

  async function gracePeriod(): Promise<bigint> {
    return BigInt(await stack.chain.readContract({ address: contracts().loanNote, abi: loanNoteAbi, functionName: "gracePeriod" }));
  }

  async function chainTime(): Promise<bigint> {
    return (await stack.chain.getBlock({ blockTag: "latest" })).timestamp;
  }
});
