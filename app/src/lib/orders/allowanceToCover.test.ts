import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { allowanceToCover, allowButtonText, offersLeftShortText, unfundedByPermitText } from "./allowanceToCover";

describe("allowanceToCover", () => {
  it("approves the other offers' exposure plus this action's most, not this one alone", () => {
    assert.equal(allowanceToCover(15_200_000_000n, 4_000_000_000n), 19_200_000_000n);
    assert.equal(allowanceToCover(0n, 4_000_000_000n), 4_000_000_000n);
  });
});

describe("allowButtonText", () => {
  it("says what the amount covers", () => {
    assert.equal(allowButtonText(19_200_000_000n, 2, true), "Allow $19,200.00: your 2 open offers and this one");
    assert.equal(allowButtonText(19_200_000_000n, 1, true), "Allow $19,200.00: your 1 open offer and this one");
    assert.equal(allowButtonText(4_000_000_000n, 0, true), "Allow $4,000.00: this offer");
    assert.equal(allowButtonText(15_200_000_000n, 3, false), "Allow $15,200.00: your 3 open offers");
  });
});

describe("unfundedByPermitText", () => {
  it("names the offers and their exposure", () => {
    assert.match(unfundedByPermitText(2, 15_200_000_000n), /^your 2 open offers \(\$15,200\.00\) would become unfunded/);
  });
});

describe("offersLeftShortText", () => {
  const one = { count: 1, total: 4_000_000_000n };
  it("warns when the wallet would keep less than its open offers may take", () => {
    assert.equal(
      offersLeftShortText(6_000_000_000n, 4_010_000_000n, one),
      "After this payment the wallet keeps $1,990.00, less than your 1 open offer may take ($4,000.00): it leaves the order book, unfunded, until the wallet holds enough again.",
    );
    assert.match(offersLeftShortText(1_000_000n, 2_000_000n, { count: 2, total: 5_000_000n })!, /keeps \$0\.00, less than your 2 open offers .* they leave/);
  });
  it("says nothing when the offers stay funded or there are none", () => {
    assert.equal(offersLeftShortText(9_000_000_000n, 5_000_000_000n, one), null);
    assert.equal(offersLeftShortText(1_000_000n, 2_000_000n, { count: 0, total: 0n }), null);
  });
});
