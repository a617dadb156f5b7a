import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isOwnLoanNote, ownNoteWords } from "./ownNoteWords";

const SPLIT = { principal: 10_000_000_000n, interest: 50_000_000n };

describe("ownNoteWords", () => {
  it("knows the borrower by the verified wallet, in any letter case", () => {
    assert.equal(isOwnLoanNote("0xAbC", "0xabc"), true);
    assert.equal(isOwnLoanNote("0xabc", "0xdef"), false);
    assert.equal(isOwnLoanNote("0xabc", null), false);
  });

  it("says that buying one's own note at 100% of par costs the payoff, with the fee inside it", () => {
    assert.equal(
      ownNoteWords(10_050_000_000n, SPLIT, 100_500_000n),
      "This note is your own loan's. With par as the dirty price, buying it is an early payoff plus the platform fee: you pay $10,050.00, exactly what paying the loan off early costs today (100% of par is $10,050.00: $10,000.00 principal + $50.00 interest accrued and unpaid), and the marketplace keeps $100.50 of that price as its fee. The loan stays open and its later repayments come back to you as the note's holder. Repaying early from My Loans settles the loan for $10,050.00 with no fee and burns the note.",
    );
  });

  it("says how far another price is from the payoff", () => {
    assert.match(ownNoteWords(10_150_000_000n, SPLIT, null), /you pay \$10,150\.00, \$100\.00 more than paying the loan off early today .* and the marketplace's fee comes out of that price\./);
    assert.match(ownNoteWords(9_750_000_000n, SPLIT, null), /you pay \$9,750\.00, \$300\.00 less than paying the loan off early today/);
  });
});
