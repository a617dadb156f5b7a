import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ratePercent, xirr, xnpv, type DatedFlow } from "./xirr";

const DAY = 86_400n;
const USD = 1_000_000n;
const at = (iso: string) => BigInt(Date.parse(`${iso}T00:00:00Z`) / 1000);
const flow = (usd: number, time: bigint): DatedFlow => ({ amount: BigInt(Math.round(usd * 1_000_000)), time });

describe("xirr: annualised internal rate of return of dated cash flows", () => {
  it("gives 10.00% for -100 then +110 a 365-day year later", () => {
    const rate = xirr([flow(-100, 0n), flow(110, 365n * DAY)]);
    assert.equal(ratePercent(rate), 10);
    assert.ok(Math.abs(rate! - 0.1) < 1e-9);
  });

  it("matches the spreadsheet's worked example (37.34%)", () => {
    // The classic XIRR example: 10,000 invested on 2008-01-01, four receipts over the next fifteen months.
    const flows = [flow(-10_000, at("2008-01-01")), flow(2_750, at("2008-03-01")), flow(4_250, at("2008-10-30")), flow(3_250, at("2009-02-15")), flow(2_750, at("2009-04-01"))];
    const rate = xirr(flows)!;
    assert.ok(Math.abs(rate - 0.373362535) < 1e-6, String(rate));
    assert.ok(Math.abs(xnpv(rate, flows)) < 1e-3 * Number(USD));
  });

  it("finds a loss: -100 then +90 after a year is -10.00%", () => {
    assert.equal(ratePercent(xirr([flow(-100, 0n), flow(90, 365n * DAY)])), -10);
  });

  it("compounds a half-year's gain: +5% in 182.5 days is 10.25% a year", () => {
    assert.equal(ratePercent(xirr([flow(-100, 0n), flow(105, (365n * DAY) / 2n)])), 10.25);
  });

  it("does not care about the order the flows come in", () => {
    const flows = [flow(-1000, 0n), flow(300, 100n * DAY), flow(400, 200n * DAY), flow(400, 300n * DAY)];
    assert.equal(xirr(flows), xirr([...flows].reverse()));
  });

  it("falls back to bisection where Newton from 10% runs off (a 10x gain in a month)", () => {
    const rate = xirr([flow(-100, 0n), flow(1000, 30n * DAY)])!;
    const expected = 10 ** (365 / 30) - 1;
    assert.ok(Math.abs(rate / expected - 1) < 1e-6, `${rate} vs ${expected}`);
  });

  it("has no rate without flows of both signs, or with all flows on one day", () => {
    assert.equal(xirr([]), null);
    assert.equal(xirr([flow(100, 0n), flow(10, DAY)]), null);
    assert.equal(xirr([flow(-100, 0n), flow(-10, DAY)]), null);
    assert.equal(xirr([flow(-100, 5n), flow(110, 5n)]), null);
  });

  it("gives 0% when everything comes back and nothing more", () => {
    assert.equal(ratePercent(xirr([flow(-100, 0n), flow(50, 100n * DAY), flow(50, 200n * DAY)])), 0);
  });
});
