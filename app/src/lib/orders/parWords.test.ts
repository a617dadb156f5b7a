import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parBreakdown } from "./parWords";

describe("parBreakdown", () => {
  it("says 100% of par as the principal plus the interest accrued, adding up to the price", () => {
    assert.equal(parBreakdown({ principal: 10_000_000_000n, interest: 50_000_000n }, 10_000n), "100% of par is $10,050.00: $10,000.00 principal + $50.00 interest accrued and unpaid");
    assert.equal(parBreakdown({ principal: 9_000_000_000n, interest: 12_345_678n }, 10_000), "100% of par is $9,012.345678: $9,000.00 principal + $12.345678 interest accrued and unpaid");
  });

  it("applies a percentage other than 100 to the principal only, the interest paid in full", () => {
    assert.equal(parBreakdown({ principal: 10_000_000_000n, interest: 50_000_000n }, 9_700n), "97% of par is $9,750.00: 97% of $10,000.00 principal + $50.00 interest accrued and unpaid");
  });
});
