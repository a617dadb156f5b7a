import { test } from "node:test";
import assert from "node:assert/strict";
import { bpsText, expiryText, matchingRanges, orderPriceToday, orderWords, percentToBps, secondsInMonths } from "./orderWords";

const EXPIRY = String(Date.UTC(2026, 11, 26, 14, 5) / 1000);
const MAX = ((1n << 256n) - 1n).toString();

test("basis points read as the percentage a person typed, and typed percentages become basis points", () => {
  assert.equal(bpsText(9900), "99%");
  assert.equal(bpsText(9850), "98.5%");
  assert.equal(bpsText(9725n), "97.25%");
  assert.equal(percentToBps("99"), 9900);
  assert.equal(percentToBps("98.5"), 9850);
  assert.equal(percentToBps(" 97.25 %"), 9725);
  assert.equal(percentToBps("0"), null);
  assert.equal(percentToBps("98.555"), null);
  assert.equal(percentToBps("abc"), null);
});

test("an expiry reads the same in every time zone", () => {
  assert.equal(expiryText(EXPIRY), "26 Dec 2026, 14:05 UTC");
});

test("a par listing says the percentage, what it is in dollars today, the expiry and that it costs no gas", () => {
  const words = orderWords("Listing", { tokenId: "42", parBps: "9900", price: "0", expiry: EXPIRY }, 10_000_000_000n);
  assert.equal(words, "You sign a listing: note #42 at 99% of its outstanding principal, $9,900.00 today, valid until 26 Dec 2026, 14:05 UTC; it costs no gas.");
});

test("a fixed listing says its price and that a repayment ends it", () => {
  const words = orderWords("Listing", { tokenId: "7", parBps: "0", price: "9500000000", expiry: EXPIRY });
  assert.match(words, /^You sign a listing: note #7 for \$9,500\.00, while the note does not change \(a repayment ends it\)/);
});

test("a par offer says its cap and that the money stays in the wallet", () => {
  const words = orderWords("Offer", { tokenId: "42", parBps: "9700", cap: "9800000000", price: "0", expiry: EXPIRY }, 10_000_000_000n);
  assert.equal(
    words,
    "You sign an offer: to buy note #42 at 97% of its outstanding principal, $9,700.00 today, paying at most $9,800.00, valid until 26 Dec 2026, 14:05 UTC; it costs no gas, and the money stays in your wallet until a holder accepts.",
  );
});

test("a matching offer says its ranges the way the form asked for them", () => {
  const message = { parBps: "9700", minRateBps: "1200", maxRateBps: MAX, minTermLeft: "0", maxTermLeft: secondsInMonths(12).toString(), minOutstanding: "0", maxOutstanding: MAX, budget: "50000000000", expiry: EXPIRY };
  assert.equal(matchingRanges(message), "at 12%+ with at most 12 months left");
  assert.equal(
    orderWords("MatchingOffer", message),
    "You sign an offer on any note that matches: 97% of its outstanding principal for any active note at 12%+ with at most 12 months left, up to $50,000.00 in all, valid until 26 Dec 2026, 14:05 UTC; it costs no gas, and the money stays in your wallet until a holder accepts.",
  );
  assert.equal(matchingRanges({ ...message, minOutstanding: "1000000000", maxOutstanding: "20000000000" }), "at 12%+ with at most 12 months left owing $1,000.00 to $20,000.00");
});

test("the price today is the fixed price, or the percentage of par rounded down, at most an offer's cap", () => {
  assert.equal(orderPriceToday({ parBps: "0", price: "123" }, 10n ** 10n), 123n);
  assert.equal(orderPriceToday({ parBps: "9900" }, 3_333_333n), 3_299_999n);
  assert.equal(orderPriceToday({ parBps: "9900", cap: "1000" }, 3_333_333n), 1000n);
});
