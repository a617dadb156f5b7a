import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { COLLATERAL_STATES } from "#domain/statuses";
import { collateralToastText, collectionText, COLLATERAL_STATE_TEXT, findPledgedNft, ltvText, moveTitle, pieceTitle, pledgeDescription, releasedText } from "./collateralWords";

const piece = { collection: "0x5fbdb2315678afecb367f032d93f642f64180aa3", collectionName: "Demo Art", tokenId: "2", name: "Demo Piece #2" };

describe("collateral words", () => {
  it("says every state of a pledged NFT in words", () => {
    assert.deepEqual(
      COLLATERAL_STATES.map((s) => COLLATERAL_STATE_TEXT[s]),
      [
        "Pledged",
        "Released – free to pledge again",
        "In escrow",
        "Return failed – claim it back",
        "Returned to borrower",
        "Claimed by the note holder",
        "Still in escrow, now for the loan that refinanced this one",
      ],
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

  it("describes a picked piece with its name once and its collection beside it", () => {
    assert.equal(pledgeDescription({ ...piece, name: "Demo Art #2", collectionName: "LoanMint Demo Art" }), "Demo Art #2 (LoanMint Demo Art)");
    assert.equal(pledgeDescription({ ...piece, name: "LoanMint Demo Art #2", collectionName: "LoanMint Demo Art" }), "LoanMint Demo Art #2");
    assert.equal(pledgeDescription({ ...piece, name: null, collectionName: "LoanMint Demo Art" }), "LoanMint Demo Art #2");
    assert.equal(pledgeDescription({ ...piece, name: null, collectionName: null }), "0x5fbd...0aa3 #2");
  });

  it("names a piece by its own name, else its collection and id, else the short address and id", () => {
    assert.equal(pieceTitle(piece), "Demo Piece #2");
    assert.equal(pieceTitle({ ...piece, name: "  " }), "Demo Art #2");
    assert.equal(pieceTitle({ ...piece, name: null, collectionName: null }), "0x5fbd...0aa3 #2");
  });

  it("tells the borrower a rejected request's piece is free to pledge again", () => {
    assert.equal(releasedText(piece), "Demo Piece #2 is released: nothing was held in escrow, and you can pledge it to a new request.");
  });

  it("names a collection beside its short address", () => {
    assert.equal(collectionText(piece), "Demo Art (0x5fbd...0aa3)");
    assert.equal(collectionText({ ...piece, collectionName: null }), "0x5fbd...0aa3");
  });

  it("names a moved piece in a toast as the pages show it, else by the collection's name the event carries, else by its short address", () => {
    const move = { collection: piece.collection, collateralId: "2", collectionName: "LoanMint Demo Art" };
    const known = { ...piece, image: null, state: "locked" as const, appraisal: null, loanToValueBps: null, txHash: null, receiver: null };
    assert.equal(moveTitle(move, known), "Demo Piece #2");
    assert.equal(moveTitle(move, { ...known, name: null }), "Demo Art #2");
    assert.equal(moveTitle(move, null), "LoanMint Demo Art #2");
    assert.equal(moveTitle({ ...move, collectionName: null }, null), "0x5fbd...0aa3 #2");
    assert.equal(moveTitle({ ...move, collectionName: null }, { ...known, name: null, collectionName: null }), "0x5fbd...0aa3 #2");
  });

  it("tells only the receiving wallet where its NFT went", () => {
    const me = "0xAbC0000000000000000000000000000000000001";
    const move = { collection: piece.collection, collateralId: "2", to: me.toLowerCase() };
    assert.equal(collateralToastText({ ...move, state: "returned" }, me, "Demo Piece #2"), "Demo Piece #2 is back in your wallet");
    assert.equal(collateralToastText({ ...move, state: "claimed" }, me, "Demo Piece #2"), "Demo Piece #2 is now in your wallet: the note is settled");
    assert.match(collateralToastText({ ...move, state: "returnFailed" }, me, "Demo Piece #2")!, /claim it back/);
    assert.equal(collateralToastText({ ...move, state: "locked" }, me, "Demo Piece #2"), null);
    assert.equal(collateralToastText({ ...move, state: "claimed" }, "0x0000000000000000000000000000000000000002", "Demo Piece #2"), null);
    assert.equal(collateralToastText({ ...move, state: "claimed" }, null, "Demo Piece #2"), null);
    assert.equal(collateralToastText({ ...move, to: undefined, state: "returned" }, me, "Demo Piece #2"), null);
  });

  it("finds a loaded piece by collection and id in a page of notes or a loan, and nothing else", () => {
    const pledged = { ...piece, image: null, state: "locked", appraisal: "1500", loanToValueBps: 6667, txHash: null, receiver: null };
    const browse = {
      nfts: [
        { tokenId: "1", collateral: null },
        { tokenId: "7", collateral: pledged },
      ],
      stats: {},
    };
    assert.equal(findPledgedNft(browse, piece.collection.toUpperCase().replace("0X", "0x"), "2"), pledged);
    assert.equal(findPledgedNft({ collateral: { type: "nft", nft: pledged } }, piece.collection, "2"), pledged);
    assert.equal(findPledgedNft(browse, piece.collection, "3"), null);
    assert.equal(findPledgedNft({ a: { b: { c: { d: { e: { f: pledged } } } } } }, piece.collection, "2"), null, "stops a few levels deep");
    assert.equal(findPledgedNft(undefined, piece.collection, "2"), null);
  });
});
