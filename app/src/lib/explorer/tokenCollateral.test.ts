import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { DecodedEvent } from "./chain";
import { isOtherNotesCollateralEvent, metadataOfDataUri, tokenCollateralFromEvents } from "./tokenCollateral";

const collection = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const borrower = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const holder = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
let index = 0;
const event = (name: string, tokenId: string, collateralId: string, who: [string, string]): DecodedEvent => ({
  logIndex: index++,
  blockNumber: BigInt(index),
  txHash: `0x${String(index).padStart(64, "0")}`,
  contract: "CollateralEscrow",
  address: "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512",
  name,
  args: [
    { name: "tokenId", value: tokenId },
    { name: "collection", value: { kind: "address", value: collection } },
    { name: "collateralId", value: collateralId },
    { name: who[0], value: { kind: "address", value: who[1] } },
  ],
});

describe("a note's collateral on the explorer", () => {
  it("follows the note's own Collateral events to the last state, with the receiver and the transaction", () => {
    const locked = event("CollateralLocked", "2", "7", ["from", borrower]);
    assert.deepEqual(tokenCollateralFromEvents([locked], "2"), { collection: collection.toLowerCase(), collateralId: "7", state: "locked", receiver: null, txHash: locked.txHash });
    const claimed = event("CollateralClaimed", "2", "7", ["to", holder]);
    assert.deepEqual(tokenCollateralFromEvents([locked, claimed], "2"), {
      collection: collection.toLowerCase(),
      collateralId: "7",
      state: "claimed",
      receiver: holder.toLowerCase(),
      txHash: claimed.txHash,
    });
    const failed = event("CollateralReturnFailed", "2", "7", ["borrower", borrower]);
    assert.equal(tokenCollateralFromEvents([locked, failed], "2")?.state, "returnFailed");
    assert.equal(tokenCollateralFromEvents([locked, failed], "2")?.receiver, borrower.toLowerCase());
  });

  it("leaves out another note's events found by the piece's id and has nothing for an unsecured note", () => {
    const other = event("CollateralLocked", "5", "2", ["from", borrower]);
    assert.equal(isOtherNotesCollateralEvent(other, "2"), true);
    assert.equal(isOtherNotesCollateralEvent(other, "5"), false);
    assert.equal(tokenCollateralFromEvents([other], "2"), null);
    assert.equal(tokenCollateralFromEvents([], "2"), null);
    assert.equal(isOtherNotesCollateralEvent({ ...other, name: "Transfer" }, "2"), false);
  });

  it("reads a name and an image from JSON data URIs and nothing from anything else", () => {
    const json = { name: "Demo Piece #7", image: "data:image/svg+xml;base64,PHN2Zy8+" };
    assert.deepEqual(metadataOfDataUri(`data:application/json;base64,${btoa(JSON.stringify(json))}`), json);
    assert.deepEqual(metadataOfDataUri(`data:application/json,${encodeURIComponent(JSON.stringify(json))}`), json);
    assert.deepEqual(metadataOfDataUri(`data:application/json,${encodeURIComponent(JSON.stringify({ name: 3, image: null }))}`), { name: null, image: null });
    assert.equal(metadataOfDataUri("https://example.com/7.json"), null);
    assert.equal(metadataOfDataUri("data:application/json;base64,!!!"), null);
    assert.equal(metadataOfDataUri("data:application/json,{not json"), null);
    assert.equal(metadataOfDataUri(null), null);
  });
});
