import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { displayUsd, formatUsdAmount, isUsd, parseUsd } from "./money";

describe("money on the wire", () => {
  it("parses decimal strings and request numbers into exact micro-dollars", () => {
    assert.equal(parseUsd("1250.5"), 1_250_500_000n);
    assert.equal(parseUsd("0.000001"), 1n);
    assert.equal(parseUsd(1000), 1_000_000_000n);
    assert.equal(parseUsd(8.25), 8_250_000n);
    assert.equal(parseUsd(" 42 "), 42_000_000n);
  });

  it("refuses negatives, excess precision, exponents and garbage", () => {
    for (const bad of ["-1", "1.0000001", "1e6", "", "abc", "1,000", -5, Number.NaN, Number.POSITIVE_INFINITY]) {
      assert.equal(isUsd(bad), false, `should refuse ${String(bad)}`);
    }
  });

  it("formats micro-dollars as the canonical decimal string and round-trips", () => {
    assert.equal(formatUsdAmount(1_250_500_000n), "1250.5");
    assert.equal(formatUsdAmount(1_000_000_000n), "1000");
    assert.equal(formatUsdAmount(1n), "0.000001");
    assert.equal(formatUsdAmount(0n), "0");
    for (const micro of [0n, 1n, 999_999n, 123_456_789_012_345n]) assert.equal(parseUsd(formatUsdAmount(micro)), micro);
  });

  it("displays dollars with thousands separators, rounded half up to cents", () => {
    assert.equal(displayUsd(1_250_500_000n), "$1,250.50");
    assert.equal(displayUsd(5_000n), "$0.01");
    assert.equal(displayUsd(4_999n), "$0.00");
    assert.equal(displayUsd(1_000_000_000_000n), "$1,000,000.00");
  });
});
