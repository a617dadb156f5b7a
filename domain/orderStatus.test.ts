import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { NOTE_STATUS, ORDER_STATUS_REASONS as R, orderStatusOf, type OrderFacts, type OrderTerms } from "./orderStatus";

const seller = "0x00000000000000000000000000000000000000aa";
const buyer = "0x00000000000000000000000000000000000000bb";
const vault = "0x00000000000000000000000000000000000000cc";
const note = { owner: seller, holder: seller, status: NOTE_STATUS.active, changes: 3n, outstanding: 10_000_000_000n, interest: 0n, daysPastDue: 0 };
const listing: OrderTerms = {
  kind: "listing",
  signer: seller,
  tokenId: 1n,
  price: 0n,
  parBps: 9_900n,
  cap: null,
  changes: 0n,
  maxDaysPastDue: 0n,
  minOutstanding: null,
  budget: null,
  expiry: 2_000n,
  counter: 0n,
};
const facts: OrderFacts = { now: 1_000n, counter: 0n, fills: 0, used: false, spent: 0n, note, funds: null };
const funded = { balance: 10n ** 12n, allowance: 10n ** 12n };
const offer: OrderTerms = { ...listing, kind: "offer", signer: buyer, parBps: 9_800n, cap: 9_000_000_000n };
const matching: OrderTerms = {
  ...listing,
  kind: "matchingOffer",
  signer: buyer,
  tokenId: null,
  minOutstanding: 1_000_000_000n,
  budget: 20_000_000_000n,
};

describe("where a signed order stands", () => {
  it("an open par listing prices at floor(parBps × outstanding / 10,000)", () => {
    assert.deepEqual(orderStatusOf(listing, facts), { status: "open", reason: null, priceNow: 9_900_000_000n });
  });
  it("a fill makes a single-use order filled, whatever else changed", () => {
    assert.equal(orderStatusOf(listing, { ...facts, fills: 1, used: true, note: { ...note, owner: buyer } }).status, "filled");
  });
  it("a cancellation or a newer counter makes it cancelled, with which", () => {
    assert.deepEqual(orderStatusOf(listing, { ...facts, used: true }).reason, R.cancelled);
    assert.deepEqual(orderStatusOf(listing, { ...facts, counter: 1n }).reason, R.counter);
  });
  it("is expired from the second of its expiry: a fill lands in a later block", () => {
    assert.equal(orderStatusOf(listing, { ...facts, now: 2_000n }).status, "expired");
    assert.equal(orderStatusOf(listing, { ...facts, now: 1_999n }).status, "open");
  });
  it("a listing lapses when the note moves or stops being active; a fixed price when anything changed", () => {
    assert.equal(orderStatusOf(listing, { ...facts, note: { ...note, owner: buyer } }).reason, R.noteMoved);
    assert.equal(orderStatusOf(listing, { ...facts, note: { ...note, status: NOTE_STATUS.defaulted } }).reason, R.notActive);
    assert.equal(orderStatusOf(listing, { ...facts, note: { ...note, changes: 9n } }).status, "open", "par survives repayments");
    const fixed = { ...listing, parBps: 0n, price: 5n, changes: 3n };
    assert.equal(orderStatusOf(fixed, facts).status, "open");
    assert.equal(orderStatusOf(fixed, { ...facts, note: { ...note, changes: 4n } }).reason, R.stateChanged);
  });
  it("an offer is capped, and unfunded without balance or allowance for its price now", () => {
    assert.deepEqual(orderStatusOf(offer, { ...facts, funds: funded }), { status: "open", reason: null, priceNow: 9_000_000_000n });
    assert.equal(orderStatusOf(offer, { ...facts, funds: { ...funded, balance: 8_999_999_999n } }).reason, R.balance);
    assert.equal(orderStatusOf(offer, { ...facts, funds: { ...funded, allowance: 0n } }).reason, R.allowance);
  });
  it("an offer lapses once its buyer holds the note, in their wallet or as the depositor of the vault's copy", () => {
    assert.equal(orderStatusOf(offer, { ...facts, funds: funded, note: { ...note, owner: buyer, holder: buyer } }).reason, R.ownNote);
    assert.equal(orderStatusOf(offer, { ...facts, funds: funded, note: { ...note, owner: vault, holder: buyer } }).reason, R.ownNote);
    assert.equal(orderStatusOf(offer, { ...facts, funds: funded, note: { ...note, owner: vault, holder: seller } }).status, "open");
  });
  it("an offer whose buyer has exactly its price in balance and allowance is open; a micro-dollar less of either is not", () => {
    const exactly = { balance: 9_000_000_000n, allowance: 9_000_000_000n };
    assert.deepEqual(orderStatusOf(offer, { ...facts, funds: exactly }), { status: "open", reason: null, priceNow: 9_000_000_000n });
    assert.deepEqual(orderStatusOf(offer, { ...facts, funds: { ...exactly, balance: 8_999_999_999n } }).status, "unfunded");
    assert.deepEqual(orderStatusOf(offer, { ...facts, funds: { ...exactly, allowance: 8_999_999_999n } }), { status: "unfunded", reason: R.allowance, priceNow: 9_000_000_000n });
    // A matching offer needs what its smallest note costs: 99% of $1,000.
    assert.equal(orderStatusOf(matching, { ...facts, note: null, funds: { balance: 990_000_000n, allowance: 990_000_000n } }).status, "open");
    assert.equal(orderStatusOf(matching, { ...facts, note: null, funds: { balance: 989_999_999n, allowance: 990_000_000n } }).reason, R.balance);
  });
  it("a matching offer is filled once what is left cannot buy its smallest note", () => {
    const open = { ...facts, note: null, funds: funded };
    assert.equal(orderStatusOf(matching, open).status, "open");
    assert.equal(orderStatusOf(matching, { ...open, fills: 1, spent: 19_500_000_000n }).status, "filled");
    assert.equal(orderStatusOf(matching, { ...open, fills: 1, spent: 10_000_000_000n }).status, "open");
    assert.equal(orderStatusOf(matching, { ...open, fills: 1, spent: 10_000_000_000n, used: true }).status, "cancelled");
  });
});
