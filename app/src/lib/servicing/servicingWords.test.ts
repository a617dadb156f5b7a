import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { WireServicing } from "#domain/wire/servicing";
import { amountPastDueText, cureText, servicingLabel } from "./servicingWords";

const servicing = (over: Partial<WireServicing>): WireServicing => ({
  status: "current",
  daysPastDue: 0,
  amountPastDue: "0",
  feesOwed: "0",
  lateFeeCount: 0,
  dueDate: Date.UTC(2026, 11, 26) / 1000,
  principalNow: "9000",
  interestNow: "45.5",
  asOf: Date.UTC(2026, 11, 1) / 1000,
  ...over,
});

describe("servicingWords", () => {
  it("names each status with its days past due where they matter", () => {
    assert.equal(servicingLabel(servicing({})), "Current");
    assert.equal(servicingLabel(servicing({ status: "late", daysPastDue: 1 })), "Late (1 day past due)");
    assert.equal(servicingLabel(servicing({ status: "late", daysPastDue: 12 })), "Late (12 days past due)");
    assert.equal(servicingLabel(servicing({ status: "delinquent", daysPastDue: 45 })), "Delinquent (45 days)");
    assert.equal(servicingLabel(servicing({ status: "defaulted", daysPastDue: 200 })), "Defaulted");
    assert.equal(servicingLabel(servicing({ status: "repaid" })), "Repaid");
  });

  it("says the amount past due only when there is one", () => {
    assert.equal(amountPastDueText(servicing({})), null);
    assert.equal(amountPastDueText(servicing({ amountPastDue: "812.4" })), "$812.40 past due");
  });

  it("tells a late borrower what is past due since when, and that paying it cures the loan", () => {
    assert.equal(cureText(servicing({})), null);
    assert.equal(cureText(servicing({ status: "late", daysPastDue: 3, amountPastDue: "812.4" })), "$812.40 is past due since 26 Dec 2026. Paying it makes the loan current again.");
    assert.equal(cureText(servicing({ status: "defaulted", amountPastDue: "812.4" })), null);
  });

  it("names the late fees inside what is past due", () => {
    assert.equal(
      cureText(servicing({ status: "late", daysPastDue: 20, amountPastDue: "853.02", feesOwed: "40.62", lateFeeCount: 1 })),
      "$853.02 is past due since 26 Dec 2026, late fees of $40.62 included. Paying it makes the loan current again.",
    );
  });
});
