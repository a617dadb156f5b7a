import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mintReviewLines } from "./mintReviewLines";

const base = { principal: "12500000000", borrowerWallet: "0x00000000000000000000000000000000000000b0", user: { walletAddress: null }, collateral: null };

describe("the review before an origination is sent again", () => {
  it("states the amount leaving the treasury and the wallet it reaches", () => {
    const lines = mintReviewLines(base as never);
    assert.equal(lines.find((l) => l.testId === "review-amount")?.value, "$12,500.00");
    assert.equal(lines.find((l) => l.testId === "review-recipient")?.value, base.borrowerWallet);
    assert.equal(
      lines.some((l) => l.testId === "review-collateral"),
      false,
    );
  });

  it("says a pledged piece is escrowed in the same transaction", () => {
    const nft = { collection: "0x1", collectionName: "Demo", tokenId: "7", name: "Demo Art #7", image: null, state: "pledged", appraisal: null };
    const lines = mintReviewLines({ ...base, collateral: { type: "nft", value: "1", description: "", nft } } as never);
    assert.equal(lines.find((l) => l.testId === "review-collateral")?.value, "Demo Art #7 moves into escrow in the same transaction");
  });
});
