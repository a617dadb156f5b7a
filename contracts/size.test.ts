import assert from "node:assert/strict";
import { test } from "node:test";
import { ensureCompiled, readArtifact } from "./artifacts";

// An ordinary build's artifact is what is deployed (a coverage build's is instrumented and larger), so the size is
// measured here, after the contracts are compiled for real, rather than inside the coverage run.
test("LoanNote's runtime code stays at most 19,000 bytes, leaving room under EIP-170's 24,576 for servicing", () => {
  ensureCompiled();
  const bytes = (readArtifact("LoanNote").deployedBytecode.length - 2) / 2;
  assert.ok(bytes <= 19_000, `LoanNote's runtime code is ${bytes} bytes`);
});
