import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { displayUsd } from "#domain/money";
import { DAY_SECONDS, scheduleRows } from "#domain/schedule";
import type { ServicingParams } from "#domain/lateFees";
import { reminderDate } from "../notifications/texts";
import { remindersDue } from "./reminders";
import type { WatchedLoan } from "./remindersRepository";

/** What one loan calls for, decided without a chain or a database: the schedule, the last seen state and a clock. */
describe("the reminders a loan calls for", () => {
  const DAY = DAY_SECONDS;
  const start = 1_800_000_000n;
  const GRACE = 30n * DAY;
  const PARAMS: ServicingParams = { gracePeriod: GRACE, lateFeeGracePeriod: 15n * DAY, lateFeeBps: 500, defaultAfterDays: 90 };
  const base: WatchedLoan = {
    loanId: "loan",
    tokenId: 7n,
    principal: 12_000_000_000n,
    rateBps: 1200,
    termMonths: 12,
    startTime: Number(start),
    totalRepaid: 0n,
    feesPaidThrough: 0,
    borrowerId: "b",
    borrowerMuted: false,
    holderId: "h",
    holderMuted: false,
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
    assert.deepEqual(
      reminders.map((r) => `${r.to}:${r.kind}:${r.installment}`),
      ["borrower:missed:1", "holder:holder_late:1"],
    );
    assert.deepEqual(state, { daysPastDue: 1, lateInstallment: 1 });
  });

  it("does not tell the holder again while the note stays late, but tells the borrower of each further miss", () => {
    // By then installment 1 is past its late-fee grace period too, which the borrower is told apart.
    assert.deepEqual(kinds(base, { daysPastDue: 29, lateInstallment: 1 }, start + 60n * DAY), ["missed:2", "late_fee:1"]);
  });

  it("keys the cure by the installment that began the late spell, and a partial payment is no cure", () => {
    const partial = { ...base, totalRepaid: rows[0].payment - 1n };
    assert.deepEqual(kinds(partial, { daysPastDue: 5, lateInstallment: 1 }, start + 35n * DAY), ["missed:1"]);
    const paid = { ...base, totalRepaid: rows[0].payment };
    const { reminders, state } = remindersDue(paid, { daysPastDue: 5, lateInstallment: 1 }, start + 35n * DAY, PARAMS);
    assert.deepEqual(
      reminders.map((r) => `${r.to}:${r.kind}:${r.installment}`),
      ["borrower:cured:1", "holder:holder_cured:1"],
    );
    assert.deepEqual(state, { daysPastDue: 0, lateInstallment: null });
  });

  it("tells the borrower once a late fee applies, from the fee's second on, with what is past due including it", () => {
    const feeTime = start + 30n * DAY + 15n * DAY;
    const late = { daysPastDue: 15, lateInstallment: 1 };
    assert.ok(!kinds(base, late, feeTime - 1n).includes("late_fee:1"));
    const { reminders } = remindersDue(base, late, feeTime, PARAMS);
    const fee = reminders.find((r) => r.kind === "late_fee")!;
    assert.equal(fee.installment, 1);
    const owedFee = (rows[0].payment * 500n) / 10_000n;
    assert.equal(
      fee.content.message,
      `Installment 1 of loan #7 is unpaid past its late-fee grace period: late fees of ${displayUsd(owedFee)} apply, and ${displayUsd(rows[0].payment + owedFee)} is past due with them.`,
    );
  });

  it("keys a second installment's fee apart, and tells no fee once it is paid", () => {
    const secondFee = start + 60n * DAY + 15n * DAY;
    assert.ok(kinds(base, { daysPastDue: 45, lateInstallment: 1 }, secondFee).includes("late_fee:2"));
    const feesPaid = { ...base, feesPaidThrough: 2 };
    assert.ok(!kinds(feesPaid, { daysPastDue: 45, lateInstallment: 1 }, secondFee).some((k) => k.startsWith("late_fee")));
  });

  it("warns of a default thirty days before the oldest unpaid installment is defaultAfterDays past due, and not once it is possible", () => {
    const defaultFrom = start + 30n * DAY + 90n * DAY;
    const late = { daysPastDue: 59, lateInstallment: 1 };
    assert.ok(!kinds(base, late, defaultFrom - 30n * DAY - 1n).includes("default_soon:1"));
    assert.ok(kinds(base, late, defaultFrom - 30n * DAY).includes("default_soon:1"));
    assert.ok(!kinds(base, late, defaultFrom).some((k) => k.startsWith("default_soon")));
    const paidOne = { ...base, totalRepaid: rows[0].payment };
    assert.ok(!kinds(paidOne, late, defaultFrom - 30n * DAY).some((k) => k.startsWith("default_soon")), "paying the oldest installment moves the moment on");
  });

  it("warns of a default from thirty days before maturity plus grace when that comes first", () => {
    const oneMonth = { ...base, termMonths: 1 };
    const defaultFrom = start + 30n * DAY + GRACE;
    assert.ok(!kinds(oneMonth, { daysPastDue: 29, lateInstallment: 1 }, defaultFrom - 30n * DAY - 1n).includes("default_soon:1"));
    assert.ok(kinds(oneMonth, { daysPastDue: 29, lateInstallment: 1 }, defaultFrom - 30n * DAY).includes("default_soon:1"));
    assert.ok(!kinds(oneMonth, { daysPastDue: 29, lateInstallment: 1 }, defaultFrom).includes("default_soon:1"));
  });
});
