// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/**
 * @title LoanMath
 * @notice The one loan schedule, mirrored unit for unit by domain/schedule.ts.
 *
 * Rounding rule (integers only; amounts in the stablecoin's smallest unit, RAY = 1e27):
 * - monthly rate r = floor(rateBps * RAY / 120000); growth G_k = g^k for g = RAY + r, by square-and-multiply
 *   with every product floored to RAY.
 * - monthly payment A = floor(P * floor(r * G_n / RAY) / (G_n - RAY)); with a zero rate A = floor(P / n).
 *   Rounding A down keeps every scheduled balance positive; the last installment absorbs the difference.
 * - scheduled balance after k installments B_k = floor(P * G_k / RAY - A * (G_k - RAY) / r), evaluated exactly
 *   (one rounding per balance, so errors never compound); zero rate: B_k = P - k * A.
 * - interest of period k < n: B_k - B_{k-1} + A; of period n: floor(B_{n-1} * rateBps / 120000).
 *   Installments 1..n-1 are A; installment n is B_{n-1} + interest_n.
 * - months are 30-day periods from the start; installment k is due at start + k * 30 days.
 * - settling at time t inside period p (1-based) costs, counted since the start,
 *   (p-1) * A + B_{p-1} + floor(interest_p * day / 30), day = whole days elapsed in the period + 1 (1..30);
 *   from maturity on it is the total due. The payoff is that minus what was repaid: outstanding principal plus
 *   the interest accrued in the current period, no penalty.
 * - valid terms amortise: A * 120000 > P * rateBps (the first installment repays some principal).
 *
 * Late fees and default (mirrored by domain/lateFees.ts), nothing written per day:
 * - installment k owes a late fee once it is still not fully paid at due_k + lateFeeGracePeriod (from that second on):
 *   floor(installment_k * lateFeeBps / 10000), installment_k = A for k < n and the last installment for k = n.
 * - with c = covered(repaid) and L = installments whose fee time has come, the fees owed are those of installments
 *   max(c, feesPaidThrough) + 1 .. L; a payment takes whole fees in installment order (`lateFeesWithin`).
 * - a loan may be defaulted from min(maturity + gracePeriod, oldest unpaid due date + defaultAfterDays days).
 */
library LoanMath {
    uint256 internal constant RAY = 1e27;
    uint256 internal constant RATE_DENOMINATOR = 120_000;
    uint256 internal constant PERIOD = 30 days;
    uint256 internal constant DAYS_PER_PERIOD = 30;
    uint256 internal constant BPS = 10_000;

    struct Terms {
        uint256 principal;
        uint256 rateBps;
        uint256 termMonths;
        uint256 payment;
    }

    /// @dev x^n in RAY, every product floored. Unchecked: for x = RAY + monthlyRate(rateBps <= 10000) and n <= 360
    ///      (the bounds every stored loan meets) no product exceeds g^360 * RAY^2 < 2^222.
    function rpow(uint256 x, uint256 n) internal pure returns (uint256 z) {
        z = RAY;
        unchecked {
            while (n != 0) {
                if (n & 1 != 0) z = (z * x) / RAY;
                n >>= 1;
                if (n != 0) x = (x * x) / RAY;
            }
        }
    }

    /// @dev rateBps <= 10000 (unchecked: the product stays below 2^107).
    function monthlyRate(uint256 rateBps) internal pure returns (uint256) {
        unchecked {
            return (rateBps * RAY) / RATE_DENOMINATOR;
        }
    }

    /// @dev Unchecked for principal < 2^64, rateBps <= 10000, 1 <= termMonths <= 360: r * f < 2^219, the numerator
    ///      < 2^192, and f > RAY whenever the rate is not zero.
    function monthlyPayment(uint256 principal, uint256 rateBps, uint256 termMonths) internal pure returns (uint256) {
        if (rateBps == 0) return principal / termMonths;
        uint256 r = monthlyRate(rateBps);
        uint256 f = rpow(RAY + r, termMonths);
        unchecked {
            return (principal * ((r * f) / RAY)) / (f - RAY);
        }
    }

    function terms(uint256 principal, uint256 rateBps, uint256 termMonths) internal pure returns (Terms memory) {
        return Terms(principal, rateBps, termMonths, monthlyPayment(principal, rateBps, termMonths));
    }

    /// @dev Whether the first installment repays some principal, which keeps every balance positive.
    function amortises(Terms memory t) internal pure returns (bool) {
        return t.payment * RATE_DENOMINATOR > t.principal * t.rateBps;
    }

    /// @dev Scheduled principal balance after `k` installments (k < termMonths).
    function balanceAfter(Terms memory t, uint256 k) internal pure returns (uint256) {
        if (t.rateBps == 0) return t.principal - k * t.payment;
        uint256 r = monthlyRate(t.rateBps);
        uint256 g = rpow(RAY + r, k);
        uint256 grown;
        uint256 paidDown;
        unchecked {
            // P < 2^64, A < 2^65 (at most P * g / RAY) and RAY <= g < 2^132: both products stay below 2^197.
            grown = t.principal * g;
            paidDown = t.payment * (g - RAY);
        }
        return (grown - mulRayDivUp(paidDown, r)) / RAY;
    }

    /// @dev ceil(x * RAY / r) for r > 0: one division while x * RAY fits in 256 bits (x < 2^160, every loan but the
    ///      largest far into long terms), OpenZeppelin's 512-bit mulDiv beyond.
    function mulRayDivUp(uint256 x, uint256 r) internal pure returns (uint256) {
        if (x >= 2 ** 160) return Math.mulDiv(x, RAY, r, Math.Rounding.Ceil);
        unchecked {
            return (x * RAY + r - 1) / r; // below 2^250 + 2^87
        }
    }

    /// @dev Interest of period `k` (1-based) given the balance before it.
    function interestOf(Terms memory t, uint256 k, uint256 balanceBefore) internal pure returns (uint256) {
        if (k < t.termMonths) return balanceAfter(t, k) + t.payment - balanceBefore;
        return (balanceBefore * t.rateBps) / RATE_DENOMINATOR;
    }

    /// @dev Sum of every installment: n-1 regular ones and the last, which absorbs the rounding.
    function totalDue(Terms memory t) internal pure returns (uint256) {
        uint256 last = balanceAfter(t, t.termMonths - 1);
        unchecked {
            // At most 360 installments and a balance below 2^65: far from 2^256.
            return (t.termMonths - 1) * t.payment + last + (last * t.rateBps) / RATE_DENOMINATOR;
        }
    }

    /// @dev What settles the loan at `timestamp`, counted since the start (not net of repayments).
    function settlementValue(Terms memory t, uint256 start, uint256 timestamp) internal pure returns (uint256) {
        uint256 elapsed = timestamp > start ? timestamp - start : 0;
        uint256 completed = elapsed / PERIOD;
        if (completed >= t.termMonths) return totalDue(t);
        uint256 balance = balanceAfter(t, completed);
        unchecked {
            // completed < termMonths <= 360; the balance, the payment and one period's interest are below 2^66.
            uint256 day = (elapsed % PERIOD) / 1 days + 1;
            uint256 accrued = (interestOf(t, completed + 1, balance) * day) / DAYS_PER_PERIOD;
            return completed * t.payment + balance + accrued;
        }
    }

    /// @dev Installments fallen due by `timestamp` minus what was repaid (never negative).
    function amountDue(Terms memory t, uint256 start, uint256 repaid, uint256 timestamp)
        internal
        pure
        returns (uint256)
    {
        uint256 elapsed = timestamp > start ? timestamp - start : 0;
        uint256 due = elapsed / PERIOD;
        uint256 scheduled = due >= t.termMonths ? totalDue(t) : due * t.payment;
        return scheduled > repaid ? scheduled - repaid : 0;
    }

    /// @dev Regular installments fully covered by `repaid`, at most n-1.
    function covered(Terms memory t, uint256 repaid) internal pure returns (uint256 k) {
        k = repaid / t.payment;
        if (k > t.termMonths - 1) k = t.termMonths - 1;
    }

    /// @dev Due date of the first installment not fully covered by `repaid`.
    function nextDueDate(Terms memory t, uint256 start, uint256 repaid) internal pure returns (uint256) {
        return start + (covered(t, repaid) + 1) * PERIOD;
    }

    /// @dev Scheduled principal not yet repaid, each payment applied to an installment's interest first.
    function outstandingPrincipal(Terms memory t, uint256 repaid) internal pure returns (uint256) {
        uint256 k = covered(t, repaid);
        uint256 balance = balanceAfter(t, k);
        return _unpaidPrincipal(balance, interestOf(t, k + 1, balance), repaid - k * t.payment);
    }

    /// @dev What installment k+1's partial payment leaves of `balance`, the payment going to its interest first.
    function _unpaidPrincipal(uint256 balance, uint256 interest, uint256 partialPayment) private pure returns (uint256) {
        if (partialPayment <= interest) return balance;
        uint256 toPrincipal = partialPayment - interest;
        return toPrincipal >= balance ? 0 : balance - toPrincipal;
    }

    /**
     * @dev The oldest unpaid installment's due date and how many days it is past due at `timestamp`, for a loan not
     *      yet settled. Days count as the settlement counts them: from the due date's own second the installment is
     *      one day past due, a day later two; before it, zero. A loan is current exactly while this is zero, which is
     *      also exactly while `amountDue` is zero.
     */
    function pastDue(Terms memory t, uint256 start, uint256 repaid, uint256 timestamp)
        internal
        pure
        returns (uint256 dueDate, uint256 daysPastDue)
    {
        dueDate = nextDueDate(t, start, repaid);
        if (timestamp >= dueDate) daysPastDue = (timestamp - dueDate) / 1 days + 1;
    }

    /**
     * @dev What settles a loan not yet settled at `timestamp` (the settlement value minus `repaid`), split as a par
     *      order prices it: `principal`, the scheduled principal not yet repaid but never more than the payoff (an
     *      installment paid ahead carries interest a payoff does not charge), and `interest`, the rest: every unpaid
     *      installment's interest and the current period's accrual. principal + interest is the payoff.
     *      When the loan is paid exactly up to the current period (the usual case) both share one schedule walk.
     */
    function payoffSplit(Terms memory t, uint256 start, uint256 repaid, uint256 timestamp)
        internal
        pure
        returns (uint256 principal, uint256 interest)
    {
        uint256 k = covered(t, repaid);
        uint256 balance = balanceAfter(t, k);
        uint256 nextInterest = interestOf(t, k + 1, balance);
        uint256 partialPayment = repaid - k * t.payment;
        uint256 elapsed = timestamp > start ? timestamp - start : 0;
        uint256 payoff;
        if (elapsed / PERIOD == k) {
            unchecked {
                // As settlementValue with completed == k: k * A + B_k + accrual, minus k * A + partialPayment.
                uint256 day = (elapsed % PERIOD) / 1 days + 1;
                payoff = balance + (nextInterest * day) / DAYS_PER_PERIOD;
            }
            payoff -= partialPayment;
        } else {
            payoff = settlementValue(t, start, timestamp) - repaid;
        }
        principal = _unpaidPrincipal(balance, nextInterest, partialPayment);
        if (principal > payoff) principal = payoff;
        interest = payoff - principal;
    }

    /// @dev The last installment, which absorbs the rounding: the total due less n-1 regular installments.
    function lastInstallment(Terms memory t) internal pure returns (uint256) {
        unchecked {
            return totalDue(t) - (t.termMonths - 1) * t.payment; // the last installment is at least B_{n-1} >= 0
        }
    }

    /// @dev Installments whose late-fee time (due date + `lateFeeGracePeriod`) has come by `timestamp`, at most n.
    function lateFeeInstallments(Terms memory t, uint256 start, uint256 lateFeeGracePeriod, uint256 timestamp)
        internal
        pure
        returns (uint256 count)
    {
        uint256 from = start + lateFeeGracePeriod;
        if (timestamp < from) return 0;
        count = (timestamp - from) / PERIOD;
        if (count > t.termMonths) count = t.termMonths;
    }

    /**
     * @dev The whole late fees of installments from + 1 .. to (from < to <= n) that `budget` covers, taken in
     *      installment order: their sum, the last installment whose fee is taken (`from` when none is) and the first
     *      fee left (zero when all are taken). Every regular installment's fee is the same; only installment n's
     *      differs.
     */
    function lateFeesWithin(Terms memory t, uint256 from, uint256 to, uint256 bps, uint256 budget)
        internal
        pure
        returns (uint256 taken, uint256 through, uint256 left)
    {
        through = from;
        uint256 lastRegular = to < t.termMonths ? to : t.termMonths - 1;
        if (lastRegular > from) {
            // A and bps are bounded (A < 2^65, bps <= 1000), the count by 360: no product nears 2^256.
            uint256 fee = (t.payment * bps) / BPS;
            uint256 count = lastRegular - from;
            if (fee != 0 && budget / fee < count) count = budget / fee;
            taken = count * fee;
            through = from + count;
            if (through < lastRegular) return (taken, through, fee);
        }
        if (to == t.termMonths) {
            uint256 fee = (lastInstallment(t) * bps) / BPS;
            if (budget - taken >= fee) {
                taken += fee;
                through = to;
            } else {
                left = fee;
            }
        }
    }

    /**
     * @dev The late fees owed at `timestamp` by a loan not yet settled: their sum, and the installments owing one
     *      (from + 1 .. to; to == from when none).
     */
    function lateFees(
        Terms memory t,
        uint256 start,
        uint256 repaid,
        uint256 feesPaidThrough,
        uint256 lateFeeGracePeriod,
        uint256 bps,
        uint256 timestamp
    ) internal pure returns (uint256 amount, uint256 from, uint256 to) {
        from = covered(t, repaid);
        if (feesPaidThrough > from) from = feesPaidThrough;
        to = lateFeeInstallments(t, start, lateFeeGracePeriod, timestamp);
        if (to > from) (amount,,) = lateFeesWithin(t, from, to, bps, type(uint256).max);
        else to = from;
    }

    /**
     * @dev The moment a loan not yet settled may be defaulted: its oldest unpaid installment's due date plus
     *      `defaultAfterDays` whole days, or maturity plus `gracePeriod`, whichever comes first.
     */
    function defaultableAt(Terms memory t, uint256 start, uint256 repaid, uint256 gracePeriod, uint256 defaultAfterDays)
        internal
        pure
        returns (uint256 at)
    {
        at = start + t.termMonths * PERIOD + gracePeriod;
        uint256 byDaysPastDue = nextDueDate(t, start, repaid) + defaultAfterDays * 1 days;
        if (byDaysPastDue < at) at = byDaysPastDue;
    }
}
