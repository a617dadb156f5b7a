import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { CollateralHistory } from "./repository";
import { collateralTimeline } from "./wire";

const collection = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
const to = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 12, minute));
const locked = { txHash: "0xlock", block: 10, time: at(0) };
const payment = { txHash: "0xpay", block: 20, time: at(5) };
const history = (over: Partial<CollateralHistory>): CollateralHistory => ({ state: "locked", collection, collateralId: "2", locked, closed: null, burn: null, ...over });
const actions = (h: CollateralHistory, name: string | null = "Demo Art") => collateralTimeline(h, name).map((e) => [e.action, e.txHash, e.at]);

describe("the escrow's timeline entries", () => {
  test("a piece in escrow has its lock, named by its collection, at the lock's block time", () => {
    assert.deepEqual(collateralTimeline(history({}), "Demo Art"), [
      { action: "collateral_locked", at: at(0).toISOString(), by: null, notes: "Demo Art #2 moved from the borrower's wallet into the loan note's escrow", txHash: "0xlock" },
    ]);
    assert.equal(collateralTimeline(history({}), null)[0].notes, "NFT #2 (0x5fbd…0aa3) moved from the borrower's wallet into the loan note's escrow");
  });

  test("a refinance moves the piece from the old loan to the new one without it leaving escrow, and each timeline says so", () => {
    const refinance = { txHash: "0xrefi", block: 30, time: at(9) };
    const old = collateralTimeline(history({ state: "moved", closed: { ...refinance, to: null }, burn: refinance }), "Demo Art");
    assert.deepEqual(
      old.map((e) => [e.action, e.txHash, e.notes]),
      [
        ["collateral_locked", "0xlock", "Demo Art #2 moved from the borrower's wallet into the loan note's escrow"],
        ["collateral_moved", "0xrefi", "Demo Art #2 stayed in escrow and now secures the loan this refinance opened"],
      ],
    );
    const fresh = collateralTimeline(history({ locked: refinance }), "Demo Art", true);
    assert.deepEqual(
      fresh.map((e) => [e.action, e.txHash, e.notes]),
      [["collateral_moved", "0xrefi", "Demo Art #2 stayed in escrow, moved from the refinanced loan to this one"]],
    );
  });

  test("a return with the final payment is one entry in that payment's transaction", () => {
    const returned = history({ state: "returned", closed: { ...payment, to }, burn: payment });
    assert.deepEqual(actions(returned), [
      ["collateral_locked", "0xlock", at(0).toISOString()],
      ["collateral_returned", "0xpay", at(5).toISOString()],
    ]);
    assert.equal(collateralTimeline(returned, "Demo Art")[1].notes, "Demo Art #2 returned to 0x7099…79c8");
  });

  test("a refused return is told at the final payment, and a later pull after it", () => {
    const refused = history({ state: "returnFailed", closed: { ...payment, to: null }, burn: payment });
    assert.deepEqual(
      actions(refused).map((a) => a[0]),
      ["collateral_locked", "collateral_return_failed"],
    );
    const pulled = history({ state: "returned", closed: { txHash: "0xpull", block: 30, time: at(9), to }, burn: payment });
    assert.deepEqual(actions(pulled), [
      ["collateral_locked", "0xlock", at(0).toISOString()],
      ["collateral_return_failed", "0xpay", at(5).toISOString()],
      ["collateral_returned", "0xpull", at(9).toISOString()],
    ]);
  });

  test("a claim after a default names who received the piece", () => {
    const claimed = history({ state: "claimed", closed: { ...payment, to }, burn: payment });
    assert.deepEqual(
      actions(claimed).map((a) => a[0]),
      ["collateral_locked", "collateral_claimed"],
    );
    assert.equal(collateralTimeline(claimed, "Demo Art")[1].notes, "Demo Art #2 claimed by the note's holder, sent to 0x7099…79c8");
  });

  test("leaves out a move whose block time is known nowhere", () => {
    const untimed = history({ state: "returned", locked: { ...locked, time: null }, closed: { ...payment, to }, burn: payment });
    assert.deepEqual(
      actions(untimed).map((a) => a[0]),
      ["collateral_returned"],
    );
  });
});
