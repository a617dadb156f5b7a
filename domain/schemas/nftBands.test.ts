import { test } from "node:test";
import assert from "node:assert/strict";
import { AMOUNT_BANDS, RATE_BANDS, amountBandOf, rateBandOf } from "./nfts";

// The marketplace filters notes with these (api/src/nfts/browse.ts): each band is [from, below).
test("an amount or a rate falls in the band whose [from, below) holds it, at every edge", () => {
  for (const [band, [from, below]] of Object.entries(AMOUNT_BANDS)) {
    assert.equal(amountBandOf(from), band);
    if (below !== null) assert.equal(amountBandOf(below - 1n), band);
    if (below !== null) assert.notEqual(amountBandOf(below), band);
  }
  for (const [band, [from, below]] of Object.entries(RATE_BANDS)) {
    assert.equal(rateBandOf(from), band);
    if (below !== null) assert.equal(rateBandOf(below - 1), band);
    if (below !== null) assert.notEqual(rateBandOf(below), band);
  }
  assert.equal(amountBandOf(10n ** 18n), "large");
  assert.equal(rateBandOf(10_000), "high");
});
