import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { ethAddress, optionalText } from "./common";
import { collateralTypeLabel } from "./loans";
import { SHARED_MESSAGES } from "./sharedMessages";

describe("the fields shared by every form", () => {
  it("reads a blank optional text (empty or spaces only) as not given, and passes any other value on as sent", () => {
    const note = optionalText(z.string().trim().max(5));
    for (const blank of ["", "   ", "\t\n", undefined]) assert.equal(note.parse(blank), undefined, JSON.stringify(blank));
    assert.equal(note.parse(" note "), "note");
    assert.equal(note.safeParse("too long").success, false, "a text given is still checked");
    assert.equal(optionalText(z.number()).parse(5), 5, "a value that is not text is not trimmed");
  });

  it("takes a wallet address with spaces around it as the address, and refuses any other shape with one message", () => {
    const address = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
    assert.equal(ethAddress.parse(`  ${address}\n`), address);
    for (const bad of [address.slice(0, 41), `${address}0`, `0x${"g".repeat(40)}`, address.slice(2), 42, null]) {
      const parsed = ethAddress.safeParse(bad);
      assert.equal(parsed.success, false, String(bad));
      assert.deepEqual(
        parsed.error!.issues.map((issue) => issue.message),
        [SHARED_MESSAGES.walletAddress],
      );
    }
  });

  it("names the wizard's collateral types as people read them and shows any other type as typed", () => {
    assert.deepEqual(["nft", "other", "Car title"].map(collateralTypeLabel), ["NFT", "Other asset", "Car title"]);
  });
});
