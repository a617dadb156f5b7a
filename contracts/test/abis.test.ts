import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { ABIS_MODULE_PATH, renderAbisModule } from "../artifacts";

describe("domain/abis.ts", () => {
  it("equals the ABIs of a fresh compile (run `npx tsx scripts/gen-abis.ts` when this fails)", () => {
    assert.equal(readFileSync(ABIS_MODULE_PATH, "utf8"), renderAbisModule());
  });
});
