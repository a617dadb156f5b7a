import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parYieldWhy } from "./noteYield";

describe("why a yield at par is not the rate", () => {
  it("says the day's interest paid up front when the yield is below the rate", () => {
    assert.equal(parYieldWhy(5.98, 6), "Below the note's 6% rate: par includes interest through the end of today, paid now, before that day has run.");
  });
  it("says the borrower paid ahead when the yield is above the rate", () => {
    assert.equal(parYieldWhy(6.01, 6), "Above the note's 6% rate: the borrower paid ahead, and par counts only what still settles the note.");
  });
  it("says nothing when they agree to the hundredth", () => {
    assert.equal(parYieldWhy(6.5, 6.5), null);
    assert.equal(parYieldWhy(6.504, 6.5), null);
  });
});
