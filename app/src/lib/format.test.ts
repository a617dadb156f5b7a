import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { countText, usd, usdExact } from "./format";

describe("format", () => {
  it("says a count with its noun in the right number: 1 message, 0 and 2 messages, a given plural", () => {
    assert.equal(countText(1, "message"), "1 message");
    assert.equal(countText(0, "message"), "0 messages");
    assert.equal(countText(2, "loan"), "2 loans");
    assert.equal(countText(3, "entry", "entries"), "3 entries");
  });

  it("shows totals in cents and the repayments that make them up with every decimal, so the lines add up", () => {
    const repayments = ["439.579436", "439.579436", "439.579437"];
    assert.deepEqual(repayments.map(usdExact), ["$439.579436", "$439.579436", "$439.579437"]);
    assert.equal(usd("1318.738309"), "$1,318.74");
    assert.equal(usdExact("1318.738309"), "$1,318.738309");
    assert.equal(usdExact("12000"), "$12,000.00");
  });
});
