// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";

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

    /// @notice Settles defaulted loan `tokenId` as its collateral goes to `claimant`, who must be the note's beneficiary
    ///         (holder, or vault depositor): burns the note. The collateral escrow only.
    function settleByClaim(uint256 tokenId, address claimant) external;
}
