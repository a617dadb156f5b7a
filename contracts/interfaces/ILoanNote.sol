// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";

/// @dev A refinance mints its note at the old id plus this offset, so loan numbers (originated ids, below it) and
///      refinanced notes never collide and a note's loan number is its id's low 128 bits.
uint256 constant REFINANCED_ID_OFFSET = 1 << 128;

/**
 * @title ILoanNote
 * @notice What the marketplace reads of a loan note: who holds it, what a buyer prices (its change count), whether its
 *         borrower is late, and what would settle it now; and what the collateral escrow asks of it.
 */
interface ILoanNote is IERC721 {
    enum Status {
        None,
        Active,
        Repaid,
        Defaulted
    }

    /// @notice A note as an order priced at a percentage of par sees it at a fill.
    /// @param owner The holder (zero once burned).
    /// @param status The loan's status.
    /// @param changes Every change a buyer prices (transfers, burn, repayments, default) so far.
    /// @param rateBps The yearly rate in basis points.
    /// @param maturity The last installment's due date (start + term months of 30 days).
    /// @param outstanding Scheduled principal not yet repaid, at most the payoff; zero unless active.
    /// @param interest Interest accrued and unpaid (unpaid installments' and the current period's); zero unless active.
    /// @param daysPastDue Days the oldest unpaid installment is past due (zero while current, and once repaid).
    struct NoteState {
        address owner;
        Status status;
        uint32 changes;
        uint256 rateBps;
        uint256 maturity;
        uint256 outstanding;
        uint256 interest;
        uint256 daysPastDue;
    }

    /// @notice The note of a signed listing or offer at a fixed price reads only this: holder, change count, lateness.
    function ownershipOf(uint256 tokenId) external view returns (address owner, uint32 changes, uint256 daysPastDue);

    /// @notice Everything an order at a percentage of par, or an offer on any matching note, checks at its fill.
    function noteStateOf(uint256 tokenId) external view returns (NoteState memory);

    /// @notice The regular monthly installment of loan `tokenId`.
    function monthlyPayment(uint256 tokenId) external view returns (uint256);

    /// @notice The borrower of loan `tokenId` (its escrow pledge's for a secured loan, zero once the piece left).
    function borrowerOf(uint256 tokenId) external view returns (address);

    /**
     * @notice Refinances active loan `tokenId` of `borrower`: pays it off (everything that settles it now, credited to
     *         its beneficiary as any payoff; `payoff` must reach this contract in the same transaction), burns its note,
     *         and originates note `newTokenId` (`tokenId` + REFINANCED_ID_OFFSET) with the new terms to `lender`, a
     *         pledged piece moving to it inside the escrow. The refinancer only; a loan not active, or a caller that is
     *         not its borrower, reverts.
     */
    function refinance(
        uint256 tokenId,
        address borrower,
        address lender,
        uint128 principal,
        uint16 rateBps,
        uint16 termMonths
    ) external returns (uint256 newTokenId, uint256 payoff);

    /// @notice Settles defaulted loan `tokenId` as its collateral goes to `claimant`, who must be the note's beneficiary
    ///         (holder, or vault depositor): burns the note. The collateral escrow only.
    function settleByClaim(uint256 tokenId, address claimant) external;
}
