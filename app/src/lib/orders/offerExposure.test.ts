import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isLiveOffer, offerMost, openOfferExposure } from "./offerExposure";

const base = { hash: "0x1", kind: "offer" as const, status: "open" as const, priceKind: "fixed" as const, price: "100", cap: null, priceNow: "100", budget: null, filled: "0" };

describe("offerMost", () => {
  it("is a fixed offer's price", () => assert.equal(offerMost(base), 100_000_000n));
  it("is a par offer's cap, not its lower price now", () => {
    assert.equal(offerMost({ ...base, priceKind: "par", price: null, cap: "4000", priceNow: "3880.722222" }), 4_000_000_000n);
  });
  it("is a par offer's price now when it has no cap", () => {
    assert.equal(offerMost({ ...base, priceKind: "par", price: null, cap: null, priceNow: "3880.5" }), 3_880_500_000n);
  });
  it("is a matching offer's budget left", () => {
    assert.equal(offerMost({ ...base, kind: "matchingOffer", priceKind: "par", price: null, priceNow: null, budget: "10000", filled: "3880.722222" }), 6_119_277_778n);
    assert.equal(offerMost({ ...base, kind: "matchingOffer", priceKind: "par", price: null, priceNow: null, budget: "10", filled: "10" }), 0n);
  });
});

describe("openOfferExposure", () => {
  const made = [
    base,
    { ...base, hash: "0x2", status: "unfunded" as const, price: "50" },
    { ...base, hash: "0x3", status: "filled" as const, price: "1000" },
    { ...base, hash: "0x4", status: "cancelled" as const, price: "1000" },
    { ...base, hash: "0x5", kind: "listing" as const, price: "1000" },
    { ...base, hash: "0x6", kind: "matchingOffer" as const, priceKind: "par" as const, price: null, budget: "500", filled: "200" },
  ];

  it("adds up open and unfunded offers only, listings and final orders aside", () => {
    assert.deepEqual(openOfferExposure(made), { count: 3, total: 450_000_000n });
  });

  it("leaves out the offer at hand", () => {
    assert.deepEqual(openOfferExposure(made, "0x2"), { count: 2, total: 400_000_000n });
  });

  it("is nothing without offers", () => assert.deepEqual(openOfferExposure([]), { count: 0, total: 0n }));

  it("counts lapsed and late offers out: they cannot fill as they stand", () => {
    assert.equal(isLiveOffer({ kind: "offer", status: "lapsed" }), false);
    assert.equal(isLiveOffer({ kind: "offer", status: "late" }), false);
  });
});
