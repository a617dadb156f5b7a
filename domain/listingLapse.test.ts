import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { listingLapseText } from "./listingLapse";

describe("why a listing lapsed", () => {
  it("names the repayment with its amount, or the default", () => {
    assert.equal(listingLapseText("repaid", 250_000_000n), "the borrower repaid $250.00");
    assert.equal(listingLapseText("defaulted", null), "the loan defaulted");
  });
  it("says something true for every reason, even without an amount", () => {
    for (const reason of ["repaid", "defaulted", "moved", "burned"] as const) assert.ok(listingLapseText(reason, null).length > 10);
  });
});
