import { test } from "node:test";
import assert from "node:assert/strict";
import { bpsText } from "./bpsText";
import { expiryText, lateLimitText, matchingRanges, orderPriceToday, orderWords, percentToBps, secondsInMonths } from "./orderWords";

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

const SPLIT = { principal: 10_000_000_000n, interest: 50_000_000n };

test("a par listing says the percentage of par, its dollars and their two parts today, the late limit, the expiry and that it costs no gas", () => {
  const words = orderWords("Listing", { tokenId: "42", parBps: "9900", price: "0", maxDaysPastDue: "0", expiry: EXPIRY }, SPLIT);
  assert.equal(
    words,
    "You sign a listing: note #42 at 99% of par (today 99% of par is $9,950.00: 99% of $10,000.00 principal + $50.00 interest accrued and unpaid), only while no installment is past due, valid until 26 Dec 2026, 14:05 UTC; it costs no gas.",
  );
});

test("without the note's figures, par is said in words", () => {
  const words = orderWords("Listing", { tokenId: "42", parBps: "10000", price: "0", expiry: EXPIRY });
  assert.match(words, /at 100% of par \(the principal still owed plus the interest accrued and unpaid\), only while no installment is past due/);
});

test("a fixed listing says its price and that a repayment ends it", () => {
  const words = orderWords("Listing", { tokenId: "7", parBps: "0", price: "9500000000", expiry: EXPIRY });
  assert.match(words, /^You sign a listing: note #7 for \$9,500\.00, while the note does not change \(a repayment ends it\)/);
});

test("the late limit reads as the signer set it", () => {
  assert.equal(lateLimitText({ maxDaysPastDue: "0" }), "only while no installment is past due");
  assert.equal(lateLimitText({}), "only while no installment is past due");
  assert.equal(lateLimitText({ maxDaysPastDue: "1" }), "only while no installment is more than 1 day past due");
  assert.equal(lateLimitText({ maxDaysPastDue: "15" }), "only while no installment is more than 15 days past due");
});

test("a par offer says its cap and that the money stays in the wallet", () => {
  const words = orderWords("Offer", { tokenId: "42", parBps: "9700", cap: "9800000000", price: "0", maxDaysPastDue: "0", expiry: EXPIRY }, SPLIT);
  assert.equal(
    words,
    "You sign an offer: to buy note #42 at 97% of par (today 97% of par is $9,750.00: 97% of $10,000.00 principal + $50.00 interest accrued and unpaid), paying at most $9,800.00, only while no installment is past due, valid until 26 Dec 2026, 14:05 UTC; it costs no gas, and the money stays in your wallet until a holder accepts.",
  );
});

test("a matching offer says its ranges the way the form asked for them, a matured note kept out", () => {
  const message = {
    parBps: "9700",
    minRateBps: "1200",
    maxRateBps: MAX,
    minTermLeft: "1",
    maxTermLeft: secondsInMonths(12).toString(),
    minOutstanding: "0",
    maxOutstanding: MAX,
    maxDaysPastDue: "0",
    budget: "50000000000",
    expiry: EXPIRY,
  };
  assert.equal(matchingRanges(message), "at 12%+ with at most 12 months left (not yet matured)");
  assert.equal(
    orderWords("MatchingOffer", message),
    "You sign an offer on any note that matches: 97% of par (the principal still owed plus the interest accrued and unpaid) for any active note at 12%+ with at most 12 months left (not yet matured), up to $50,000.00 in all, only while no installment is past due, valid until 26 Dec 2026, 14:05 UTC; it costs no gas, and the money stays in your wallet until a holder accepts.",
  );
  assert.equal(matchingRanges({ ...message, minTermLeft: "0", minOutstanding: "1000000000", maxOutstanding: "20000000000" }), "at 12%+ with at most 12 months left owing $1,000.00 to $20,000.00");
  assert.equal(matchingRanges({ ...message, minTermLeft: secondsInMonths(3).toString() }), "at 12%+ with at most 12 months left with at least 3 months left");
});

test("the price today is the fixed price, or the percentage of par's principal rounded down plus the interest, at most an offer's cap", () => {
  assert.equal(orderPriceToday({ parBps: "0", price: "123" }, { principal: 10n ** 10n, interest: 5n }), 123n);
  assert.equal(orderPriceToday({ parBps: "9900" }, { principal: 3_333_333n, interest: 0n }), 3_299_999n);
  assert.equal(orderPriceToday({ parBps: "9900" }, { principal: 3_333_333n, interest: 1_000n }), 3_300_999n);
  assert.equal(orderPriceToday({ parBps: "9900", cap: "1000" }, { principal: 3_333_333n, interest: 1_000n }), 1000n);
});
