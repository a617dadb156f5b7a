// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/**
 * @title ICollateralEscrow
 * @notice The escrow of the ERC-721s pledged as loan collateral, and the allow-list of the collections that may be
 *         pledged. LoanNote locks a piece as it originates a secured loan and releases it at the final payment; after a
 *         default the note's beneficiary claims it here, and a borrower whose return the collection refused pulls it.
 */
interface ICollateralEscrow {
    error CollectionNotAllowed(address collection);
    error InvalidCollection(address collection);
    error TooManyCollections();
    error ZeroAddress();
    error CollateralNotHeld(address collection, uint256 collateralId, address borrower);
    error CollateralNotApproved(address collection, uint256 collateralId, address borrower);
    error CollateralTransferFailed(address collection, uint256 collateralId);
    error CollateralNotReceived(address collection, uint256 collateralId);
    error NoCollateral(uint256 tokenId);
    error CollateralNotClaimable(uint256 tokenId);
    error NotEntitled(uint256 tokenId, address caller);
    error InvalidCollateralRecipient(address to);
    /// @notice Only LoanNote locks and releases pieces.
    error NotLoanNote(address caller);

    event CollectionAllowed(address indexed collection, uint256 index);
    event CollectionDisallowed(address indexed collection);
    /// @notice Piece `collateralId` of `collection` moved from `from` (the borrower) into escrow for note `tokenId`.
    event CollateralLocked(uint256 indexed tokenId, address indexed collection, uint256 indexed collateralId, address from);
    /// @notice The escrowed piece went back to the borrower `to` (at the final payment or by their pull).
    event CollateralReturned(uint256 indexed tokenId, address indexed collection, uint256 indexed collateralId, address to);
    /// @notice The collection refused to return the piece at the final payment; the borrower pulls it with `claimCollateral`.
    event CollateralReturnFailed(uint256 indexed tokenId, address indexed collection, uint256 indexed collateralId, address borrower);
    /// @notice A refinance re-recorded the piece securing note `tokenId` for its new note `newTokenId`; it never left.
    event CollateralMoved(uint256 indexed tokenId, uint256 indexed newTokenId, address indexed collection, uint256 collateralId);
    /// @notice After a default the note's holder (or its vault depositor) took the piece to `to`; the note burned.
    event CollateralClaimed(uint256 indexed tokenId, address indexed collection, uint256 indexed collateralId, address to);

    /// @notice Moves piece `collateralId` of the allowed `collection` from `borrower` into escrow for note `tokenId`.
    ///         LoanNote only, as it originates the secured loan.
    function lock(uint256 tokenId, address collection, uint256 collateralId, address borrower) external;

    /// @notice Returns note `tokenId`'s piece to its borrower, never reverting for the collection. LoanNote only, as the
    ///         last call of the final payment.
    function release(uint256 tokenId) external;

    /// @notice Re-records note `tokenId`'s piece for note `newTokenId` without moving it and returns its borrower. LoanNote
    ///         only, as a refinance replaces the note.
    function move(uint256 tokenId, uint256 newTokenId) external returns (address borrower);

    /// @notice Takes note `tokenId`'s escrowed piece out to `to`: the beneficiary after a default, or the borrower after
    ///         a refused return.
    function claimCollateral(uint256 tokenId, address to) external;

    /// @notice The piece escrowed for note `tokenId` and its borrower; all zero when none is held for it.
    function collateralOf(uint256 tokenId) external view returns (address collection, uint256 collateralId, address borrower);

    /// @notice Whether pieces of `collection` can be pledged now.
    function isCollectionAllowed(address collection) external view returns (bool);
}
