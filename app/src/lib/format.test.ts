import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { bpsPercentText, countText, ethText, interestLine, unixTimeText, usd, usdInput } from "./format";

describe("format", () => {
  it("says a count with its noun in the right number: 1 message, 0 and 2 messages, a given plural", () => {
    assert.equal(countText(1, "message"), "1 message");
    assert.equal(countText(0, "message"), "0 messages");
    assert.equal(countText(2, "loan"), "2 loans");
    assert.equal(countText(3, "entry", "entries"), "3 entries");
  });

  it("shows a repayment in cents, as any total: $507.32, not $507.316932", () => {
    assert.equal(`Repayment of ${usd("507.316932")}`, "Repayment of $507.32");
    assert.equal(usd("0.005"), "$0.01");
    assert.equal(usd("1234.565"), "$1,234.57");
  });

  it("prefills an amount input in cents without separators, so the box reads 7685.44 and the form accepts it", () => {
    assert.equal(usdInput("7685.435118"), "7685.44");
    assert.equal(usdInput("12000"), "12000.00");
    assert.equal(usdInput(null), "");
  });

  it("shows ETH rounded to 4 decimals with grouped thousands", () => {
    assert.equal(ethText(10000999201775864365800n), "10,000.9992 ETH");
    assert.equal(ethText(1_500_000_000_000_000_000n), "1.5 ETH");
    assert.equal(ethText(0n), "0 ETH");
    assert.equal(ethText(99_999_999_999_999n), "0.0001 ETH");
    assert.equal(ethText(1n), "< 0.0001 ETH");
  });

  it("shows basis points as percent and unix seconds as a date", () => {
    assert.equal(bpsPercentText(850), "8.5%");
    assert.equal(bpsPercentText(1200n), "12%");
    assert.equal(unixTimeText(1_700_000_000n), new Date(1_700_000_000_000).toLocaleString());
    assert.equal(unixTimeText(0n), "—");
  });

  it("says the interest paid on a repaid loan and the schedule's total, labelled so, on a running one", () => {
    const loan = { principal: "1000", amount: "1000", totalInterest: "43.9", totalRepaid: "1000.42" };
    assert.deepEqual(interestLine({ ...loan, status: "completed" }), { label: "Interest paid", value: "$0.42" });
    assert.deepEqual(interestLine({ ...loan, status: "active" }), { label: "Total interest (scheduled)", value: "$43.90" });
  });
});
