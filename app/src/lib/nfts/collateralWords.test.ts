import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { COLLATERAL_STATES } from "#domain/statuses";
import { collectionText, COLLATERAL_STATE_TEXT, ltvText, pieceTitle } from "./collateralWords";

const piece = { collection: "0x5fbdb2315678afecb367f032d93f642f64180aa3", collectionName: "Demo Art", tokenId: "2", name: "Demo Piece #2" };

describe("collateral words", () => {
  it("says every state of a pledged NFT in words", () => {
    assert.deepEqual(
      COLLATERAL_STATES.map((s) => COLLATERAL_STATE_TEXT[s]),
      ["Pledged", "In escrow", "Return failed – claim it back", "Returned to borrower", "Claimed by the note holder"],
    );
  });

  it("shows loan-to-value to one decimal and nothing without an appraisal", () => {
    assert.equal(ltvText(6667), "LTV 66.7%");
    assert.equal(ltvText(5000), "LTV 50%");
    assert.equal(ltvText(12345), "LTV 123.5%");
    assert.equal(ltvText(4), "LTV 0%");
    assert.equal(ltvText(null), null);
    assert.equal(ltvText(undefined), null);
  });

  it("names a piece by its own name, else its collection and id, else the short address and id", () => {
    assert.equal(pieceTitle(piece), "Demo Piece #2");
    assert.equal(pieceTitle({ ...piece, name: "  " }), "Demo Art #2");
    assert.equal(pieceTitle({ ...piece, name: null, collectionName: null }), "0x5fbd...0aa3 #2");
  });

  it("names a collection beside its short address", () => {
    assert.equal(collectionText(piece), "Demo Art (0x5fbd...0aa3)");
    assert.equal(collectionText({ ...piece, collectionName: null }), "0x5fbd...0aa3");
  });
});
