import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { placedOrderText } from "./placedOrderText";

describe("placedOrderText", () => {
  it("says an order is in the book only when the book shows it", () => {
    assert.equal(placedOrderText({ kind: "offer", status: "open", statusReason: null }, "Offer signed: $15,200.00 in the order book"), "Offer signed: $15,200.00 in the order book");
  });

  it("says an unfunded offer is stored but not in the book, and why", () => {
    const text = placedOrderText({ kind: "offer", status: "unfunded", statusReason: "The buyer has not approved the marketplace for the price" }, "Offer signed: $15,200.00 in the order book");
    assert.equal(text, "Your offer is signed and stored, but it is not in the order book yet: The buyer has not approved the marketplace for the price");
    assert.doesNotMatch(text, /\$15,200/);
  });
});
