import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  MAX_PRINCIPAL,
  MAX_RATE_BPS,
  MAX_TERM_MONTHS,
  MIN_PRINCIPAL,
  PERIOD_SECONDS,
  DAY_SECONDS,
  amountDueNow,
  dueDate,
  installmentsPaid,
  monthlyPayment,
  nextDueDate,
  outstandingBalance,
  payoffAmount,
  scheduleRows,
  settlementValue,
  totalDue,
  isValidTerms,
  type LoanTerms,
} from "./schedule";

const start = 1_700_000_000n;
const terms = (principal: bigint, rateBps: number, termMonths: number): LoanTerms => ({ principal, rateBps, termMonths, start });

const arbitraryTerms = fc
  .record({
    principal: fc.bigInt({ min: MIN_PRINCIPAL, max: MAX_PRINCIPAL }),
    rateBps: fc.integer({ min: 0, max: MAX_RATE_BPS }),
    termMonths: fc.integer({ min: 1, max: MAX_TERM_MONTHS }),
  })
  .filter(isValidTerms)
  .map((t) => ({ ...t, start }));

describe("the loan schedule", () => {
  it("matches the textbook annuity for $10,000 at 12% over 12 months ($888.49, rounded down)", () => {
    assert.equal(monthlyPayment(10_000_000_000n, 1200, 12), 888_487_886n);
  });

  it("lays out $10,000 at 12% over 12 months to the micro-dollar, as exact fractions of 1.01^k give it", () => {
    // Expected rows worked out apart from this code, with exact rationals: B_k = floor(P * 1.01^k - A * (1.01^k - 1) / 0.01).
    const rows = scheduleRows(terms(10_000_000_000n, 1200, 12));
    assert.deepEqual(
      rows.map((r) => [r.index, r.payment, r.interest, r.principal, r.balance]),
      [
        [1, 888_487_886n, 100_000_000n, 788_487_886n, 9_211_512_114n],
        [2, 888_487_886n, 92_115_121n, 796_372_765n, 8_415_139_349n],
        [3, 888_487_886n, 84_151_393n, 804_336_493n, 7_610_802_856n],
        [4, 888_487_886n, 76_108_029n, 812_379_857n, 6_798_422_999n],
        [5, 888_487_886n, 67_984_230n, 820_503_656n, 5_977_919_343n],
        [6, 888_487_886n, 59_779_193n, 828_708_693n, 5_149_210_650n],
        [7, 888_487_886n, 51_492_107n, 836_995_779n, 4_312_214_871n],
        [8, 888_487_886n, 43_122_148n, 845_365_738n, 3_466_849_133n],
        [9, 888_487_886n, 34_668_492n, 853_819_394n, 2_613_029_739n],
        [10, 888_487_886n, 26_130_297n, 862_357_589n, 1_750_672_150n],
        [11, 888_487_886n, 17_506_722n, 870_981_164n, 879_690_986n],
        [12, 888_487_895n, 8_796_909n, 879_690_986n, 0n],
      ],
    );
    assert.equal(totalDue(terms(10_000_000_000n, 1200, 12)), 10_661_854_641n);
    assert.equal(rows[4].dueDate, start + 5n * PERIOD_SECONDS);
  });

  it("owes the whole total due on the maturity date, and eleven installments one second before it", () => {
    const t = terms(10_000_000_000n, 1200, 12);
    const maturity = start + 12n * PERIOD_SECONDS;
    assert.equal(amountDueNow(t, 0n, maturity), 10_661_854_641n);
    assert.equal(amountDueNow(t, 0n, maturity - 1n), 11n * 888_487_886n);
    assert.equal(amountDueNow(t, 10_661_854_641n, maturity), 0n);
    assert.equal(payoffAmount(t, 0n, maturity), 10_661_854_641n);
    assert.equal(payoffAmount(t, 10_661_854_642n, maturity), 0n);
  });

  it("splits a zero-rate loan into equal installments rounded down, the last one absorbing the rest", () => {
    const rows = scheduleRows(terms(10_000_000n, 0, 3));
    assert.deepEqual(
      rows.map((r) => r.payment),
      [3_333_333n, 3_333_333n, 3_333_334n],
    );
    assert.equal(totalDue(terms(10_000_000n, 0, 3)), 10_000_000n);
  });

  it("pays back exactly the principal and sums the rows to the total due, for any terms", () => {
    fc.assert(
      fc.property(arbitraryTerms, (t) => {
        const rows = scheduleRows(t);
        assert.equal(rows.at(-1)!.balance, 0n);
        assert.equal(
          rows.reduce((s, r) => s + r.principal, 0n),
          t.principal,
        );
        assert.equal(
          rows.reduce((s, r) => s + r.payment, 0n),
          totalDue(t),
        );
        for (const row of rows) assert.ok(row.principal >= 0n && row.interest >= 0n);
        // Rounding A down leaves the last installment at least A, up to two units of flooring aside.
        assert.ok(rows.at(-1)!.payment >= monthlyPayment(t.principal, t.rateBps, t.termMonths) - 2n);
      }),
      { numRuns: 300 },
    );
  });

  it("never lowers what settles the loan as time passes, and reaches the total due at maturity", () => {
    fc.assert(
      fc.property(arbitraryTerms, fc.array(fc.bigInt({ min: 0n, max: 400n * PERIOD_SECONDS }), { minLength: 2, maxLength: 8 }), (t, offsets) => {
        const sorted = [...offsets].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        let previous = 0n;
        for (const offset of sorted) {
          const value = settlementValue(t, start + offset);
          assert.ok(value >= previous);
          previous = value;
        }
        assert.equal(settlementValue(t, start + BigInt(t.termMonths) * PERIOD_SECONDS), totalDue(t));
      }),
      { numRuns: 300 },
    );
  });

  it("counts an installment paid exactly when the repayments reach the schedule's payments through it", () => {
    fc.assert(
      fc.property(arbitraryTerms, fc.integer({ min: 0, max: MAX_TERM_MONTHS }), fc.bigInt({ min: -2n, max: 2n }), (t, k, nudge) => {
        const rows = scheduleRows(t);
        const through = rows.slice(0, Math.min(k, rows.length)).reduce((sum, r) => sum + r.payment, 0n);
        const repaid = through + nudge < 0n ? 0n : through + nudge;
        let cumulative = 0n;
        const expected = rows.filter((r) => (cumulative += r.payment) <= repaid).length;
        assert.equal(installmentsPaid(t, repaid), expected);
      }),
      { numRuns: 300 },
    );
  });

  it("refuses terms that would not amortise and accepts the platform's extremes", () => {
    assert.equal(isValidTerms({ principal: 1_000_000n, rateBps: 10_000, termMonths: 360 }), false);
    assert.equal(isValidTerms({ principal: 999_999n, rateBps: 100, termMonths: 12 }), false);
    assert.equal(isValidTerms({ principal: 1_000_000_000n, rateBps: 5_000, termMonths: 360 }), true);
    assert.equal(isValidTerms({ principal: 1_000_000_000_000n, rateBps: 10, termMonths: 1 }), true);
  });

  it("holds the principal bounds exactly: the minimum and the 56-bit maximum are accepted, one unit beyond is not", () => {
    assert.equal(isValidTerms({ principal: 1_000_000n, rateBps: 100, termMonths: 12 }), true);
    assert.equal(isValidTerms({ principal: 999_999n, rateBps: 100, termMonths: 12 }), false);
    // Spelled out, not MAX_PRINCIPAL ± 1: the contract stores principal in 56 bits, whatever the constant says.
    assert.equal(MAX_PRINCIPAL, 72_057_594_037_927_935n);
    assert.equal(isValidTerms({ principal: 72_057_594_037_927_935n, rateBps: 1200, termMonths: 12 }), true);
    assert.equal(isValidTerms({ principal: 72_057_594_037_927_936n, rateBps: 1200, termMonths: 12 }), false);
  });

  it("holds the rate and term bounds exactly: 0 to 10,000 basis points, 1 to 360 months", () => {
    const principal = 1_000_000_000n;
    assert.equal(isValidTerms({ principal, rateBps: 0, termMonths: 12 }), true);
    assert.equal(isValidTerms({ principal, rateBps: -1, termMonths: 12 }), false);
    assert.equal(isValidTerms({ principal, rateBps: MAX_RATE_BPS, termMonths: 1 }), true);
    assert.equal(isValidTerms({ principal, rateBps: MAX_RATE_BPS + 1, termMonths: 1 }), false);
    assert.equal(isValidTerms({ principal, rateBps: 1200, termMonths: 1 }), true);
    assert.equal(isValidTerms({ principal, rateBps: 1200, termMonths: 0 }), false);
    assert.equal(isValidTerms({ principal, rateBps: 1200, termMonths: MAX_TERM_MONTHS }), true);
    assert.equal(isValidTerms({ principal, rateBps: 1200, termMonths: MAX_TERM_MONTHS + 1 }), false);
  });

  it("never counts the last installment paid before the total due, even when the repayments pass n times the monthly payment", () => {
    // Zero rate: A = 3,333,333 and the last installment is 3,333,334, so 3 × A is still one unit short.
    const t = terms(10_000_000n, 0, 3);
    assert.equal(installmentsPaid(t, 9_999_999n), 2);
    assert.equal(nextDueDate(t, 9_999_999n), start + 3n * PERIOD_SECONDS);
    assert.equal(outstandingBalance(t, 9_999_999n), 1n);
    assert.equal(installmentsPaid(t, 10_000_000n), 3);
    assert.equal(outstandingBalance(t, 10_000_000n), 0n);
  });

  it("charges principal plus one day of interest for a payoff on the first day", () => {
    const t = terms(12_000_000_000n, 1200, 12);
    assert.equal(payoffAmount(t, 0n, start), 12_000_000_000n + 120_000_000n / 30n);
  });

  it("reports nothing due before the first due date and one installment on it", () => {
    const t = terms(10_000_000_000n, 1200, 12);
    const payment = monthlyPayment(t.principal, 1200, 12);
    assert.equal(amountDueNow(t, 0n, start + PERIOD_SECONDS - 1n), 0n);
    assert.equal(amountDueNow(t, 0n, start + PERIOD_SECONDS), payment);
    assert.equal(amountDueNow(t, payment, start + PERIOD_SECONDS), 0n);
    assert.equal(nextDueDate(t, 0n), start + PERIOD_SECONDS);
    assert.equal(nextDueDate(t, payment), start + 2n * PERIOD_SECONDS);
  });

  it("applies a payment to interest first when computing the outstanding principal", () => {
    const t = terms(10_000_000_000n, 1200, 12);
    const [first] = scheduleRows(t);
    assert.equal(outstandingBalance(t, 0n), t.principal);
    assert.equal(outstandingBalance(t, first.interest), t.principal);
    assert.equal(outstandingBalance(t, first.payment), first.balance);
    assert.equal(outstandingBalance(t, totalDue(t)), 0n);
  });

  describe("with all but the last installment paid", () => {
    // Pinned values (they agree with the contract's views in the agreement test): $10,000 at 12% over 12 months.
    const t = terms(10_000_000_000n, 1200, 12);
    const A = 888_487_886n;
    const paid = 11n * A;
    const B11 = 879_690_986n; // scheduled balance after 11 installments
    const lastInterest = 8_796_909n; // floor(B11 * 1200 / 120000), not an annuity difference
    const lastPayment = B11 + lastInterest; // 888_487_895

    it("makes the last row the balance left plus its simple interest, and the total due the sum of all", () => {
      const rows = scheduleRows(t);
      assert.equal(rows[10].balance, B11);
      assert.deepEqual(rows[11], { index: 12, dueDate: start + 12n * PERIOD_SECONDS, payment: lastPayment, interest: lastInterest, principal: B11, balance: 0n });
      assert.equal(totalDue(t), paid + lastPayment);
    });

    it("owes the scheduled balance, with the last installment next, until the last payment", () => {
      assert.equal(outstandingBalance(t, paid), B11);
      assert.equal(outstandingBalance(t, paid + lastInterest), B11, "a payment goes to the last period's interest first");
      assert.equal(outstandingBalance(t, paid + lastInterest + 1n), B11 - 1n);
      assert.equal(outstandingBalance(t, totalDue(t) - 1n), 1n);
      assert.equal(outstandingBalance(t, totalDue(t)), 0n);
      assert.equal(nextDueDate(t, paid - 1n), dueDate(t, 11));
      assert.equal(nextDueDate(t, paid), dueDate(t, 12));
      assert.equal(nextDueDate(t, totalDue(t)), dueDate(t, 12), "a repaid loan has no installment after the last");
    });

    it("charges the balance plus the accrued days of the last period's interest to pay off, and the last installment at maturity", () => {
      assert.equal(payoffAmount(t, paid, dueDate(t, 11)), B11 + lastInterest / 30n);
      assert.equal(payoffAmount(t, paid, dueDate(t, 11) + DAY_SECONDS), B11 + (lastInterest * 2n) / 30n);
      assert.equal(payoffAmount(t, paid, dueDate(t, 12) - 1n), lastPayment);
      assert.equal(payoffAmount(t, paid, dueDate(t, 12)), lastPayment);
      assert.equal(payoffAmount(t, totalDue(t), dueDate(t, 12)), 0n);
    });

    it("has nothing due until the last due date, then exactly the last installment", () => {
      assert.equal(amountDueNow(t, paid, dueDate(t, 11)), 0n);
      assert.equal(amountDueNow(t, paid, dueDate(t, 12) - 1n), 0n);
      assert.equal(amountDueNow(t, paid, dueDate(t, 12)), lastPayment);
      assert.equal(amountDueNow(t, paid - 1n, dueDate(t, 11)), 1n);
    });

    it("holds for a zero-rate loan: the last installment absorbs the rounding", () => {
      const z = terms(10_000_000n, 0, 3);
      assert.equal(outstandingBalance(z, 6_666_666n), 3_333_334n);
      assert.equal(nextDueDate(z, 6_666_666n), dueDate(z, 3));
      assert.equal(payoffAmount(z, 6_666_666n, dueDate(z, 2)), 3_333_334n);
      assert.equal(amountDueNow(z, 6_666_666n, dueDate(z, 3)), 3_333_334n);
    });

    it("holds for any terms: balance, next due date, payoff and amount due agree with the rows", () => {
      fc.assert(
        fc.property(
          arbitraryTerms.filter((x) => Number(x.termMonths) >= 2),
          (x) => {
            const n = Number(x.termMonths);
            const rows = scheduleRows(x);
            const before = rows[n - 2].balance;
            const repaid = BigInt(n - 1) * monthlyPayment(x.principal, x.rateBps, x.termMonths);
            const last = rows[n - 1];
            assert.equal(last.interest, (before * BigInt(x.rateBps)) / 120_000n);
            assert.equal(last.payment, before + last.interest);
            assert.equal(totalDue(x), repaid + last.payment);
            assert.equal(outstandingBalance(x, repaid), before);
            assert.equal(nextDueDate(x, repaid), dueDate(x, n));
            assert.equal(payoffAmount(x, repaid, dueDate(x, n - 1)), before + last.interest / 30n);
            assert.equal(payoffAmount(x, repaid, dueDate(x, n)), last.payment);
            assert.equal(amountDueNow(x, repaid, dueDate(x, n) - 1n), 0n);
            assert.equal(amountDueNow(x, repaid, dueDate(x, n)), last.payment);
          },
        ),
        { numRuns: 300 },
      );
    });
  });
});
