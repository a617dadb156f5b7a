// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {LoanMath} from "../libraries/LoanMath.sol";

/// @dev Test only: LoanMath at any time and repaid amount, to compare with domain/schedule.ts cheaply.
contract LoanMathHarness {
    function views(uint256 principal, uint256 rateBps, uint256 termMonths, uint256 start, uint256 repaid, uint256 at)
        external
        pure
        returns (uint256 payment, uint256 total, uint256 settlement, uint256 due, uint256 next, uint256 outstanding)
    {
        LoanMath.Terms memory t = LoanMath.terms(principal, rateBps, termMonths);
        return (
            t.payment,
            LoanMath.totalDue(t),
            LoanMath.settlementValue(t, start, at),
            LoanMath.amountDue(t, start, repaid, at),
            LoanMath.nextDueDate(t, start, repaid),
            LoanMath.outstandingPrincipal(t, repaid)
        );
    }

    /// @dev Servicing at `at`: LoanMath.pastDue, amountDue and payoffSplit, as LoanNote's pastDueOf and noteStateOf read them.
    function servicing(uint256 principal, uint256 rateBps, uint256 termMonths, uint256 start, uint256 repaid, uint256 at)
        external
        pure
        returns (uint256 dueDate, uint256 daysPastDue, uint256 amountPastDue, uint256 principalPart, uint256 interestPart)
    {
        LoanMath.Terms memory t = LoanMath.terms(principal, rateBps, termMonths);
        (dueDate, daysPastDue) = LoanMath.pastDue(t, start, repaid, at);
        amountPastDue = LoanMath.amountDue(t, start, repaid, at);
        (principalPart, interestPart) = LoanMath.payoffSplit(t, start, repaid, at);
    }

    function mulRayDivUp(uint256 x, uint256 r) external pure returns (uint256) {
        return LoanMath.mulRayDivUp(x, r);
    }

    /// @dev Late fees and the default moment at `at`, as LoanNote's views and `_repay` read them (fee parameters given).
    function lateFees(
        uint256 principal,
        uint256 rateBps,
        uint256 termMonths,
        uint256 start,
        uint256 repaid,
        uint256 feesPaidThrough,
        uint256 lateFeeGracePeriod,
        uint256 lateFeeBps,
        uint256 at
    ) external pure returns (uint256 amount, uint256 from, uint256 to) {
        LoanMath.Terms memory t = LoanMath.terms(principal, rateBps, termMonths);
        return LoanMath.lateFees(t, start, repaid, feesPaidThrough, lateFeeGracePeriod, lateFeeBps, at);
    }

    function lateFeesWithin(
        uint256 principal,
        uint256 rateBps,
        uint256 termMonths,
        uint256 from,
        uint256 to,
        uint256 lateFeeBps,
        uint256 budget
    ) external pure returns (uint256 taken, uint256 through, uint256 left) {
        return LoanMath.lateFeesWithin(LoanMath.terms(principal, rateBps, termMonths), from, to, lateFeeBps, budget);
    }

    function defaultableAt(
        uint256 principal,
        uint256 rateBps,
        uint256 termMonths,
        uint256 start,
        uint256 repaid,
        uint256 gracePeriod,
        uint256 defaultAfterDays
    ) external pure returns (uint256) {
        LoanMath.Terms memory t = LoanMath.terms(principal, rateBps, termMonths);
        return LoanMath.defaultableAt(t, start, repaid, gracePeriod, defaultAfterDays);
    }
}
