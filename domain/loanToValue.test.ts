import { test } from "node:test";
import assert from "node:assert/strict";
import { loanToValueBps } from "./loanToValue";

test("the loan-to-value is the principal over the appraisal in basis points, rounded half up", () => {
  assert.equal(loanToValueBps(1_000_000_000n, 1_500_000_000n), 6667);
  assert.equal(loanToValueBps(1_000_000_000n, 2_000_000_000n), 5000);
  assert.equal(loanToValueBps(3_000_000_000n, 2_000_000_000n), 15000);
});

test("there is no loan-to-value without a positive appraisal", () => {
  assert.equal(loanToValueBps(1_000_000_000n, null), null);
  assert.equal(loanToValueBps(1_000_000_000n, 0n), null);
});
