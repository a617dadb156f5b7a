import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { displayUsd, displayUsdExact, formatUsdAmount, isUsd, MoneyFormatError, parseUsd, typedUsd } from "./money";

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

  it("reads a zero amount sent as a number as zero, not as garbage", () => {
    assert.equal(parseUsd(0), 0n);
    assert.equal(parseUsd(10), 10_000_000n);
    assert.equal(parseUsd("0"), 0n);
  });

  it("accepts a number whose float error lies below a micro-dollar and refuses one with a real seventh decimal, rounding up or down", () => {
    assert.equal(parseUsd(0.1 + 0.2), 300_000n);
    assert.equal(parseUsd(1.1 * 3), 3_300_000n);
    for (const bad of [1.0000001, 1.0000004, 0.9999996, 2.5000005]) {
      assert.throws(() => parseUsd(bad), MoneyFormatError, `should refuse ${bad}`);
    }
  });

  it("throws a MoneyFormatError naming the input for every refused value, string or number", () => {
    for (const bad of ["abc", "", "-1", "1.0000001", -5, Number.NaN, Number.POSITIVE_INFINITY, 1e21]) {
      assert.throws(
        () => parseUsd(bad),
        (error: unknown) => error instanceof MoneyFormatError && Object.is(error.input, bad) && error.message === `Not a USD amount with at most 6 decimals: ${String(bad)}`,
        `should refuse ${String(bad)} with a MoneyFormatError`,
      );
    }
  });

  it("says a string or number parseUsd accepts is a USD amount, and anything else is not", () => {
    for (const good of ["12.5", " 42 ", "0", 3, 0, 8.25]) assert.equal(isUsd(good), true, `should accept ${String(good)}`);
    // An object with a trim() is not a string, whatever it answers: isUsd narrows the type to string | number.
    for (const bad of [null, undefined, 12n, true, {}, ["1"], { trim: () => "1" }]) assert.equal(isUsd(bad), false, `should refuse ${String(bad)}`);
  });

  it("formats a negative amount (a refund or a shortfall) with a leading minus and the same digits", () => {
    assert.equal(formatUsdAmount(-1_250_500_000n), "-1250.5");
    assert.equal(formatUsdAmount(-1n), "-0.000001");
    assert.equal(formatUsdAmount(-1_000_000n), "-1");
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

describe("amounts as people type them", () => {
  it("reads thousands separators and a dollar sign into the wire's plain decimal string", () => {
    assert.equal(typedUsd("12,000"), "12000");
    assert.equal(typedUsd(" 1,250,000.50 "), "1250000.50");
    assert.equal(typedUsd("$12,000"), "12000");
    assert.equal(typedUsd("$ 950.5"), "950.5");
    assert.equal(typedUsd("12000"), "12000");
    assert.equal(parseUsd(typedUsd("12,000")), 12_000_000_000n);
  });

  it("leaves malformed groups for the wire schema to refuse", () => {
    for (const bad of ["1,2", "12,00", "1,0000", ",000", "abc", "-1,000"]) {
      assert.equal(isUsd(typedUsd(bad)), false, `should still refuse ${bad}`);
    }
  });
});

describe("exact display for amounts that are added up", () => {
  it("shows whole cents as cents and anything finer with its every decimal, so parts add up to the total", () => {
    assert.equal(displayUsdExact(705_580_000n), "$705.58");
    assert.equal(displayUsdExact(705_583_529n), "$705.583529");
    assert.equal(displayUsdExact(11_296_834_999n), "$11,296.834999");
    // Rounded to cents these two read $705.58 + $11,296.83 = $12,002.41 beside a total of $12,002.42.
    assert.equal(displayUsd(705_583_529n + 11_296_834_999n), "$12,002.42");
    assert.equal(displayUsdExact(705_583_529n + 11_296_834_999n), "$12,002.418528");
  });
});
