import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { displayUsd } from "#domain/money";
import { DAY_SECONDS, scheduleRows } from "#domain/schedule";
import { reminderDate } from "../notifications/texts";
import { remindersDue } from "./reminders";
import type { WatchedLoan } from "./remindersRepository";

/** What one loan calls for, decided without a chain or a database: the schedule, the last seen state and a clock. */
describe("the reminders a loan calls for", () => {
  const DAY = DAY_SECONDS;
  const start = 1_800_000_000n;
  const GRACE = 30n * DAY;
  const PARAMS = { gracePeriod: GRACE, defaultAfterDays: 90 };
  const base: WatchedLoan = {
    loanId: "loan", tokenId: 7n, principal: 12_000_000_000n, rateBps: 1200, termMonths: 12, startTime: Number(start), totalRepaid: 0n,
    noteStatus: "active", borrowerId: "b", borrowerMuted: false, holderId: "h", holderMuted: false,
  };
  const rows = scheduleRows({ principal: base.principal, rateBps: base.rateBps, termMonths: base.termMonths, start });
  const current = { daysPastDue: 0, lateInstallment: null };
  const kinds = (loan: WatchedLoan, previous: typeof current | { daysPastDue: number; lateInstallment: number | null }, now: bigint) =>
    remindersDue(loan, previous, now, PARAMS).reminders.map((r) => `${r.kind}:${r.installment}`);

  it("reminds of nothing more than three days before the first due date", () => {
    assert.deepEqual(kinds(base, current, start + 27n * DAY - 1n), []);
    assert.deepEqual(kinds(base, current, start + 27n * DAY), ["due_soon:1"]);
  });

  it("never reminds of an installment already paid ahead", () => {
    const paidTwo = { ...base, totalRepaid: rows[0].payment + rows[1].payment };
    assert.deepEqual(kinds(paidTwo, current, start + 28n * DAY), []);
    assert.deepEqual(kinds(paidTwo, current, start + 87n * DAY), ["due_soon:3"]);
  });

  it("asks in a due-soon reminder only what is still owed on that installment", () => {
    const partly = { ...base, totalRepaid: 100_000_000n };
    const [reminder] = remindersDue(partly, current, start + 28n * DAY, PARAMS).reminders;
    assert.equal(reminder.content.message, `Installment 1 of loan #7, ${displayUsd(rows[0].payment - 100_000_000n)}, is due on ${reminderDate(start + 30n * DAY)}.`);
  });

  it("tells the holder the note went late the first time it is seen late, keyed by the oldest unpaid installment", () => {
    const { reminders, state } = remindersDue(base, current, start + 30n * DAY, PARAMS);
    assert.deepEqual(reminders.map((r) => `${r.to}:${r.kind}:${r.installment}`), ["borrower:missed:1", "holder:holder_late:1"]);
    assert.deepEqual(state, { daysPastDue: 1, lateInstallment: 1 });
  });

  it("does not tell the holder again while the note stays late, but tells the borrower of each further miss", () => {
    assert.deepEqual(kinds(base, { daysPastDue: 29, lateInstallment: 1 }, start + 60n * DAY), ["missed:2"]);
  });

  it("keys the cure by the installment that began the late spell, and a partial payment is no cure", () => {
    const partial = { ...base, totalRepaid: rows[0].payment - 1n };
    assert.deepEqual(kinds(partial, { daysPastDue: 5, lateInstallment: 1 }, start + 35n * DAY), ["missed:1"]);
    const paid = { ...base, totalRepaid: rows[0].payment };
    const { reminders, state } = remindersDue(paid, { daysPastDue: 5, lateInstallment: 1 }, start + 35n * DAY, PARAMS);
    assert.deepEqual(reminders.map((r) => `${r.to}:${r.kind}:${r.installment}`), ["borrower:cured:1", "holder:holder_cured:1"]);
    assert.deepEqual(state, { daysPastDue: 0, lateInstallment: null });
  });

  it("warns of a default from thirty days before maturity plus grace, and not once it is possible", () => {
    const oneMonth = { ...base, termMonths: 1 };
    const defaultFrom = start + 30n * DAY + GRACE;
    assert.ok(!kinds(oneMonth, { daysPastDue: 29, lateInstallment: 1 }, defaultFrom - 30n * DAY - 1n).includes("default_soon:0"));
    assert.ok(kinds(oneMonth, { daysPastDue: 29, lateInstallment: 1 }, defaultFrom - 30n * DAY).includes("default_soon:0"));
    assert.ok(!kinds(oneMonth, { daysPastDue: 29, lateInstallment: 1 }, defaultFrom).includes("default_soon:0"));
  });

  it("warns of a default from thirty days before the oldest unpaid installment is ninety days past due, when that comes before maturity", () => {
    const defaultFrom = start + 30n * DAY + 90n * DAY;
    const late = { daysPastDue: 60, lateInstallment: 1 };
    assert.ok(!kinds(base, late, defaultFrom - 30n * DAY - 1n).includes("default_soon:0"));
    assert.ok(kinds(base, late, defaultFrom - 30n * DAY).includes("default_soon:0"));
    assert.ok(!kinds(base, late, defaultFrom).includes("default_soon:0"));
    const paidOne = { ...base, totalRepaid: rows[0].payment };
    assert.ok(!kinds(paidOne, late, defaultFrom - 30n * DAY).includes("default_soon:0"), "paying the oldest installment moves the moment on");
  });

  it("tells borrower and holder of a default with what is unpaid, and nothing else", () => {
    const defaulted = { ...base, termMonths: 1, principal: 1_000_000_000n, totalRepaid: 0n, noteStatus: "defaulted" as const };
    const { reminders } = remindersDue(defaulted, { daysPastDue: 40, lateInstallment: 1 }, start + 100n * DAY, PARAMS);
    assert.deepEqual(reminders.map((r) => `${r.to}:${r.kind}:${r.installment}`), ["borrower:defaulted:0", "holder:holder_defaulted:0"]);
    assert.match(reminders[0].content.message, /^Loan #7 is in default with \$1,010\.00 unpaid\.$/);
  });
});
