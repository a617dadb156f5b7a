// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {RefinanceOffer, MatchingRefinanceOffer, OrderTypes} from "./libraries/OrderTypes.sol";
import {LoanMath} from "./libraries/LoanMath.sol";
import {ILoanNote, REFINANCED_ID_OFFSET} from "./interfaces/ILoanNote.sol";
import {NoteOrders} from "./NoteOrders.sol";

/**
 * @title NoteRefinancing
 * @notice Refinance offers signed off-chain (EIP-712) by a lender, an EOA or an EIP-1271 contract wallet, and accepted
 *         here by the borrower in one transaction: the lender's new principal pays off the loan (what would settle it
 *         at that second, credited to its note's holder as any payoff), the note is burned and a new note on the
 *         offered terms is minted to the lender, a pledged piece staying in escrow. Principal above the payoff goes to
 *         the borrower; a shortfall is paid by the borrower (allowance, or a permit in the same transaction).
 *         The offers share the other orders' checks: expiry, cancel one (`cancelOrders`), cancel all
 *         (`incrementCounter`), signatures, and a matching offer's budget.
 * @dev Invariants:
 *      - Only the loan's borrower accepts (LoanNote checks the caller against the borrower it recorded), and only an
 *        active loan (a late one is cured by its payoff; a defaulted or repaid one reverts).
 *      - The new terms lower the borrower's yearly rate by at least `minRateImprovementBps` or their monthly payment,
 *        and never end before the old loan's maturity unless the borrower allows it.
 *      - Nobody pays more than they signed or named: the lender exactly the principal the borrower chose, at most the
 *        signed cap (and a matching offer's budget left); the borrower at most what `minNet` allows. The old holder
 *        is credited exactly the payoff, whatever changed between signature and acceptance.
 *      - A one-loan offer fills at most once (its loan's note is burned); a matching offer's fills never lend more
 *        than its budget.
 */
abstract contract NoteRefinancing is NoteOrders {
    /// @notice The most a deployment may require a rate to fall by: 10 percentage points.
    uint256 public constant MAX_MIN_RATE_IMPROVEMENT_BPS = 1_000;

    /// @notice How much lower, in basis points, a new yearly rate must be unless the monthly payment falls.
    uint256 public immutable minRateImprovementBps;

    /// @notice The borrower's choices at the acceptance: the principal borrowed (at most the offer's cap), the least
    ///         net amount received (principal minus payoff; negative: the most paid in) and whether the new loan may
    ///         end before the old one's maturity.
    struct Acceptance {
        uint256 principal;
        int256 minNet;
        bool allowShorterTerm;
    }

    error MinRateImprovementTooHigh(uint256 minRateImprovementBps);
    error PrincipalAboveCap(uint256 principal, uint256 maxPrincipal);
    /// @notice Neither the rate falls by the minimum nor the monthly payment falls.
    error TermsNotBetter(uint256 tokenId, uint256 rateBps, uint256 newRateBps);
    /// @notice The new loan would end before the old one's maturity, which the borrower did not allow.
    error TermShortened(uint256 tokenId, uint256 maturity, uint256 newMaturity);
    /// @notice The borrower would receive less (or pay in more) than they allowed.
    error NetBelowMin(int256 net, int256 minNet);

    /// @notice A refinance offer filled: loan `tokenId` was paid off with `payoff` and replaced by note `newTokenId`,
    ///         lent by `lender` with `principal`; the borrower received `principal - payoff` (or paid the shortfall).
    event RefinanceFilled(
        bytes32 indexed orderHash,
        uint256 indexed tokenId,
        uint256 indexed newTokenId,
        address lender,
        address borrower,
        uint256 principal,
        uint256 payoff
    );

    constructor(uint256 minRateImprovementBps_) {
        if (minRateImprovementBps_ > MAX_MIN_RATE_IMPROVEMENT_BPS) {
            revert MinRateImprovementTooHigh(minRateImprovementBps_);
        }
        minRateImprovementBps = minRateImprovementBps_;
    }

    // ---------------------------------------------------------------- acceptance

    /**
     * @notice Refinances the caller's loan `offer.tokenId` with a lender's signed one-loan offer; see `Acceptance`.
     *         The lender pays from their stablecoin allowance to this marketplace, the caller any shortfall likewise.
     * @param offer The lender's signed offer.
     * @param signature The lender's EIP-712 signature (65 bytes) or their EIP-1271 wallet's.
     * @return newTokenId The new loan's note, held by the lender.
     */
    function acceptRefinanceOffer(RefinanceOffer calldata offer, bytes calldata signature, Acceptance calldata acceptance)
        external
        whenNotPaused
        nonReentrant
        returns (uint256 newTokenId)
    {
        return _acceptRefinanceOffer(offer, signature, acceptance);
    }

    /// @notice `acceptRefinanceOffer` after an ERC-2612 permit, for this marketplace, of the most the caller may pay in
    ///         (`-acceptance.minNet`, zero when positive), in one transaction.
    /// @dev A permit already used (for example front-run) is ignored; the allowance then decides.
    function acceptRefinanceOfferWithPermit(
        RefinanceOffer calldata offer,
        bytes calldata signature,
        Acceptance calldata acceptance,
        uint256 deadline,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external whenNotPaused nonReentrant returns (uint256 newTokenId) {
        _permit(_mostPaidIn(acceptance), deadline, v, r, s);
        return _acceptRefinanceOffer(offer, signature, acceptance);
    }

    /**
     * @notice Refinances the caller's loan `tokenId` with a lender's signed offer on any matching loan: the loan must be
     *         active, inside every signed range and no further past due than signed, and the principal must fit in
     *         what is left of the offer's budget; see `Acceptance`.
     * @param offer The lender's signed offer on any matching loan.
     * @param signature The lender's EIP-712 signature (65 bytes) or their EIP-1271 wallet's.
     * @param tokenId The caller's loan.
     * @return newTokenId The new loan's note, held by the lender.
     */
    function acceptMatchingRefinanceOffer(
        MatchingRefinanceOffer calldata offer,
        bytes calldata signature,
        uint256 tokenId,
        Acceptance calldata acceptance
    ) external whenNotPaused nonReentrant returns (uint256 newTokenId) {
        return _acceptMatchingRefinanceOffer(offer, signature, tokenId, acceptance);
    }

    /// @notice `acceptMatchingRefinanceOffer` after an ERC-2612 permit as `acceptRefinanceOfferWithPermit` makes.
    /// @dev A permit already used (for example front-run) is ignored; the allowance then decides.
    function acceptMatchingRefinanceOfferWithPermit(
        MatchingRefinanceOffer calldata offer,
        bytes calldata signature,
        uint256 tokenId,
        Acceptance calldata acceptance,
        uint256 deadline,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external whenNotPaused nonReentrant returns (uint256 newTokenId) {
        _permit(_mostPaidIn(acceptance), deadline, v, r, s);
        return _acceptMatchingRefinanceOffer(offer, signature, tokenId, acceptance);
    }

    // ---------------------------------------------------------------- views

    /// @notice The EIP-712 digest a lender signs for a one-loan refinance `offer`.
    function hashRefinanceOffer(RefinanceOffer calldata offer) public view returns (bytes32) {
        return _hashTypedDataV4(OrderTypes.hash(offer));
    }

    /// @notice The EIP-712 digest a lender signs for a matching refinance `offer`.
    function hashMatchingRefinanceOffer(MatchingRefinanceOffer calldata offer) public view returns (bytes32) {
        return _hashTypedDataV4(OrderTypes.hash(offer));
    }

    /// @notice The note that note `tokenId` replaced when a refinance minted it; zero for a note originated as a loan.
    /// @dev A refinance mints at the old id plus REFINANCED_ID_OFFSET, so the link needs no storage.
    function refinancedFrom(uint256 tokenId) external view returns (uint256) {
        if (tokenId < REFINANCED_ID_OFFSET || note.noteStateOf(tokenId).status == ILoanNote.Status.None) return 0;
        return tokenId - REFINANCED_ID_OFFSET;
    }

    // ---------------------------------------------------------------- internals

    /// @dev Moves `amount` of the stablecoin from `from` to `to` with this marketplace's allowance; reverts on failure.
    function _pay(address from, address to, uint256 amount) internal virtual;

    function _acceptRefinanceOffer(RefinanceOffer calldata offer, bytes calldata signature, Acceptance calldata acceptance)
        private
        returns (uint256)
    {
        bytes32 orderHash = hashRefinanceOffer(offer);
        _checkOrder(orderHash, offer.lender, offer.counter, offer.expiry, signature);
        if (acceptance.principal > offer.maxPrincipal) revert PrincipalAboveCap(acceptance.principal, offer.maxPrincipal);
        ILoanNote.NoteState memory state = note.noteStateOf(offer.tokenId);
        _checkLate(offer.tokenId, state.daysPastDue, offer.maxDaysPastDue);
        return _refinance(orderHash, offer.lender, offer.tokenId, state, offer.rateBps, offer.termMonths, acceptance);
    }

    function _acceptMatchingRefinanceOffer(
        MatchingRefinanceOffer calldata offer,
        bytes calldata signature,
        uint256 tokenId,
        Acceptance calldata acceptance
    ) private returns (uint256) {
        bytes32 orderHash = hashMatchingRefinanceOffer(offer);
        uint256 spent = _checkOrder(orderHash, offer.lender, offer.counter, offer.expiry, signature);
        uint256 principal = acceptance.principal;
        if (principal > offer.maxPrincipal) revert PrincipalAboveCap(principal, offer.maxPrincipal);
        ILoanNote.NoteState memory state = note.noteStateOf(tokenId);
        if (
            state.status != ILoanNote.Status.Active || _outside(state.rateBps, offer.minRateBps, offer.maxRateBps)
                || _outside(Math.saturatingSub(state.maturity, block.timestamp), offer.minTermLeft, offer.maxTermLeft)
                || _outside(state.outstanding, offer.minOutstanding, offer.maxOutstanding)
        ) revert NoteNotMatching(orderHash, tokenId);
        _checkLate(tokenId, state.daysPastDue, offer.maxDaysPastDue);
        if (principal > offer.budget - spent) revert BudgetExceeded(orderHash, principal, offer.budget - spent);
        _recordSpent(offer.lender, orderHash, spent + principal);
        return _refinance(orderHash, offer.lender, tokenId, state, offer.rateBps, offer.termMonths, acceptance);
    }

    /**
     * @dev The borrower's protections, then LoanNote's one refinance path (which checks the caller is the borrower and
     *      the loan active, pays it off and mints the new note), then the money: the payoff to LoanNote (from the
     *      lender, and any shortfall from the borrower) and any principal above it to the borrower.
     */
    function _refinance(
        bytes32 orderHash,
        address lender,
        uint256 tokenId,
        ILoanNote.NoteState memory state,
        uint256 rateBps,
        uint256 termMonths,
        Acceptance calldata acceptance
    ) private returns (uint256 newTokenId) {
        uint256 principal = acceptance.principal;
        uint256 newMaturity = block.timestamp + termMonths * LoanMath.PERIOD;
        if (!acceptance.allowShorterTerm && newMaturity < state.maturity) {
            revert TermShortened(tokenId, state.maturity, newMaturity);
        }
        if (
            rateBps + minRateImprovementBps > state.rateBps
                && LoanMath.monthlyPayment(principal, rateBps, termMonths) >= note.monthlyPayment(tokenId)
        ) revert TermsNotBetter(tokenId, state.rateBps, rateBps);
        uint256 payoff;
        (newTokenId, payoff) = note.refinance(
            tokenId,
            msg.sender,
            lender,
            SafeCast.toUint128(principal),
            SafeCast.toUint16(rateBps),
            SafeCast.toUint16(termMonths)
        );
        int256 net = SafeCast.toInt256(principal) - SafeCast.toInt256(payoff);
        if (net < acceptance.minNet) revert NetBelowMin(net, acceptance.minNet);
        emit RefinanceFilled(orderHash, tokenId, newTokenId, lender, msg.sender, principal, payoff);
        if (net >= 0) {
            _pay(lender, address(note), payoff);
            if (net != 0) _pay(lender, msg.sender, uint256(net));
        } else {
            _pay(lender, address(note), principal);
            _pay(msg.sender, address(note), uint256(-net));
        }
    }

    /// @dev The most the borrower allowed themselves to pay in: `-minNet`, or zero.
    function _mostPaidIn(Acceptance calldata acceptance) private pure returns (uint256) {
        return acceptance.minNet < 0 ? uint256(-acceptance.minNet) : 0;
    }
}
