import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { ensureCompiled, OVERRIDE_MODULE_PATH, renderOverrideModule } from "./artifacts";

// The runtime code is what an eth_call's state override installs, so it is compared with an ordinary build's artifact
// here rather than inside the coverage run, whose artifacts are instrumented.
test("domain/overrideCode.ts equals the ABIs and runtime code of a fresh compile (run `npx tsx scripts/gen-abis.ts` when this fails)", () => {
  ensureCompiled();
  assert.equal(readFileSync(OVERRIDE_MODULE_PATH, "utf8"), renderOverrideModule());
});
