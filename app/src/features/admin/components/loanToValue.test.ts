import { test } from "node:test";
import assert from "node:assert/strict";
import { typedMicro } from "./loanToValue";

test("a typed amount with thousands separators is read in micro-dollars, and anything else is not an amount", () => {
  assert.equal(typedMicro("1,500.00"), 1_500_000_000n);
  assert.equal(typedMicro("abc"), null);
  assert.equal(typedMicro(""), null);
});
