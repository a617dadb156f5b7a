import { test } from "node:test";
import assert from "node:assert/strict";
import { belowCollateralRatio, collateralValue, loanToValueBps } from "./loanToValue";

test("the loan-to-value is the principal over the appraisal in basis points, rounded half up", () => {
  assert.equal(loanToValueBps(1_000_000_000n, 1_500_000_000n), 6667);
  assert.equal(loanToValueBps(1_000_000_000n, 2_000_000_000n), 5000);
  assert.equal(loanToValueBps(3_000_000_000n, 2_000_000_000n), 15000);
});

test("there is no loan-to-value without a positive appraisal", () => {
  assert.equal(loanToValueBps(1_000_000_000n, null), null);
  assert.equal(loanToValueBps(1_000_000_000n, 0n), null);
});

test("collateral worth less than 150% of the loan is below the wizard's rule; exactly 150% is not", () => {
  const usd = (n: bigint) => n * 1_000_000n;
  assert.equal(belowCollateralRatio(usd(1_000n), usd(1_500n)), false);
  assert.equal(belowCollateralRatio(usd(1_000n), usd(1_500n) - 1n), true);
  assert.equal(belowCollateralRatio(usd(3_000n), usd(4_000n)), true); // LTV 75%
  assert.equal(belowCollateralRatio(usd(1_000n), null), false);
});

test("a lower appraisal replaces the borrower's estimate; a higher one leaves the estimate as the value", () => {
  assert.deepEqual(collateralValue(5_000n, 4_000n), { value: 4_000n, estimate: 5_000n, appraised: true });
  assert.deepEqual(collateralValue(5_000n, 6_000n), { value: 5_000n, estimate: 5_000n, appraised: false });
  assert.deepEqual(collateralValue(5_000n, null), { value: 5_000n, estimate: 5_000n, appraised: false });
});
