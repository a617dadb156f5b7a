// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {NoteOrders} from "./NoteOrders.sol";
import {NoteRefinancing} from "./NoteRefinancing.sol";

/**
 * @title NoteMarketplace
 * @notice Fixed-price listings of loan notes, paid in the stablecoin. Listings are approval-based: the note
 *         stays with the seller until sold. A listing lapses when its note changes in any way a buyer prices
 *         (a transfer, the burn, any repayment, a default), so a listing is only ever filled by the holder who
 *         made it, at the price the buyer expected, for the note state it was listed at. Orders signed off-chain
 *         (listings, offers, offers on any matching note) fill here too: see NoteOrders; and so do lenders' refinance
 *         offers, which a borrower accepts: see NoteRefinancing.
 * @dev Not upgradeable; the fee can change but never above MAX_FEE_BPS.
 *      Invariant: a listing is live only while the note's owner is its seller and the note's change count
 *      (LoanNote.ownershipOf) equals the one recorded at listing; `listingOf`, `updatePrice` and the buys all
 *      check both.
 */
contract NoteMarketplace is AccessControl, Pausable, ReentrancyGuardTransient, NoteRefinancing {
    using SafeERC20 for IERC20;

    bytes32 public constant PAUSER_ROLE = keccak256("PAUSER_ROLE");
    /// @notice Hard cap of the platform fee: 5%.
    uint256 public constant MAX_FEE_BPS = 500;
    uint256 private constant BPS = 10_000;

    /// @dev One slot: seller, price and the note's change count when listed.
    struct Listing {
        address seller;
        uint64 price;
        uint32 changes;
    }

    IERC20 public immutable stablecoin;

    /// @notice Receives the fee of every sale.
    address public feeRecipient;
    /// @notice Fee of every sale in basis points of the price.
    uint16 public feeBps;

    mapping(uint256 tokenId => Listing) private _listings;

    error NotTokenOwner(uint256 tokenId, address caller);
    error NotSeller(uint256 tokenId, address caller);
    error NotListed(uint256 tokenId);
    error ListingStale(uint256 tokenId);
    error MarketplaceNotApproved(uint256 tokenId);
    error InvalidPrice(uint256 price);
    error PriceMismatch(uint256 tokenId, uint256 price, uint256 expectedPrice);
    error FeeTooHigh(uint256 feeBps);
    error ZeroAddress();

    event Listed(uint256 indexed tokenId, address indexed seller, uint256 price);
    event ListingUpdated(uint256 indexed tokenId, address indexed seller, uint256 price);
    event ListingCancelled(uint256 indexed tokenId, address indexed seller);
    event Sold(uint256 indexed tokenId, address indexed seller, address indexed buyer, uint256 price, uint256 fee);
    event FeeUpdated(address indexed feeRecipient, uint256 feeBps);

    /// @param note_ The LoanNote contract.
    /// @param stablecoin_ The ERC-20 prices are paid in.
    /// @param admin Receives the admin and pauser roles.
    /// @param feeRecipient_ Receives the fees.
    /// @param feeBps_ Fee in basis points, at most MAX_FEE_BPS.
    /// @param minRateImprovementBps_ How much a refinance must lower a rate unless it lowers the monthly payment.
    constructor(
        address note_,
        address stablecoin_,
        address admin,
        address feeRecipient_,
        uint16 feeBps_,
        uint256 minRateImprovementBps_
    ) NoteOrders(note_) NoteRefinancing(minRateImprovementBps_) {
        if (note_ == address(0) || stablecoin_ == address(0) || admin == address(0)) revert ZeroAddress();
        stablecoin = IERC20(stablecoin_);
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(PAUSER_ROLE, admin);
        _setFee(feeRecipient_, feeBps_);
    }

    /// @notice Lists `tokenId` at `price` for the note as it is now; the caller must hold it and have approved
    ///         this marketplace. The listing lapses at the note's next change (transfer, repayment, default).
    function list(uint256 tokenId, uint256 price) external whenNotPaused {
        (address owner, uint32 changes,) = note.ownershipOf(tokenId);
        if (owner != msg.sender) revert NotTokenOwner(tokenId, msg.sender);
        _checkPrice(price);
        if (note.getApproved(tokenId) != address(this) && !note.isApprovedForAll(owner, address(this))) {
            revert MarketplaceNotApproved(tokenId);
        }
        _listings[tokenId] = Listing(msg.sender, uint64(price), changes);
        emit Listed(tokenId, msg.sender, price);
    }

    /// @notice Changes the price of the caller's live listing of `tokenId`.
    function updatePrice(uint256 tokenId, uint256 price) external whenNotPaused {
        Listing storage listing = _liveListing(tokenId);
        if (listing.seller != msg.sender) revert NotSeller(tokenId, msg.sender);
        _checkPrice(price);
        listing.price = uint64(price);
        emit ListingUpdated(tokenId, msg.sender, price);
    }

    /// @notice Removes the caller's listing of `tokenId` (also while paused, also when stale).
    function cancel(uint256 tokenId) external {
        address seller = _listings[tokenId].seller;
        if (seller == address(0)) revert NotListed(tokenId);
        if (seller != msg.sender) revert NotSeller(tokenId, msg.sender);
        delete _listings[tokenId];
        emit ListingCancelled(tokenId, msg.sender);
    }

    /**
     * @notice Buys `tokenId` at its listed price, which must equal `expectedPrice`; the caller must have
     *         approved this marketplace for the price in the stablecoin. Reverts with `ListingStale` when the
     *         note changed since it was listed (transfer, repayment, default), so the buyer never pays for a
     *         note state other than the one listed, and with `NoteLate` while an installment is past due: a plain
     *         listing never sells a late note as a current one.
     */
    function buy(uint256 tokenId, uint256 expectedPrice) external whenNotPaused nonReentrant {
        _buy(tokenId, expectedPrice);
    }

    /// @notice `buy` after an ERC-2612 permit of `expectedPrice` for this marketplace, in one transaction.
    /// @dev A permit already used (for example front-run) is ignored; the allowance then decides.
    function buyWithPermit(uint256 tokenId, uint256 expectedPrice, uint256 deadline, uint8 v, bytes32 r, bytes32 s)
        external
        whenNotPaused
        nonReentrant
    {
        _permit(expectedPrice, deadline, v, r, s);
        _buy(tokenId, expectedPrice);
    }

    function _buy(uint256 tokenId, uint256 expectedPrice) private {
        Listing memory listing = _listings[tokenId];
        if (listing.seller == address(0)) revert NotListed(tokenId);
        if (listing.price != expectedPrice) revert PriceMismatch(tokenId, listing.price, expectedPrice);
        (address owner, uint32 changes, uint256 daysPastDue) = note.ownershipOf(tokenId);
        if (owner != listing.seller || changes != listing.changes) revert ListingStale(tokenId);
        _checkLate(tokenId, daysPastDue, 0);
        delete _listings[tokenId];
        uint256 fee = _feeOf(expectedPrice);
        emit Sold(tokenId, listing.seller, msg.sender, expectedPrice, fee);
        _settle(listing.seller, msg.sender, tokenId, expectedPrice, fee);
    }

    function _settle(address seller, address buyer, uint256 tokenId, uint256 price, uint256 fee) internal override {
        stablecoin.safeTransferFrom(buyer, seller, price - fee);
        if (fee != 0) stablecoin.safeTransferFrom(buyer, feeRecipient, fee);
        note.safeTransferFrom(seller, buyer, tokenId);
    }

    function _pay(address from, address to, uint256 amount) internal override {
        stablecoin.safeTransferFrom(from, to, amount);
    }

    function _feeOf(uint256 price) internal view override returns (uint256) {
        return (price * feeBps) / BPS;
    }

    function _permit(uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s) internal override {
        try IERC20Permit(address(stablecoin)).permit(msg.sender, address(this), value, deadline, v, r, s) {} catch {}
    }

    /// @notice The live listing of `tokenId`; a missing listing, or one whose note changed since (transfer,
    ///         repayment, default), reads as zero seller and price.
    function listingOf(uint256 tokenId) external view returns (address seller, uint256 price) {
        Listing memory listing = _listings[tokenId];
        if (listing.seller == address(0)) return (address(0), 0);
        (address owner, uint32 changes,) = note.ownershipOf(tokenId);
        if (owner != listing.seller || changes != listing.changes) return (address(0), 0);
        return (listing.seller, listing.price);
    }

    /// @notice Changes the fee recipient and fee; admin only, never above MAX_FEE_BPS.
    function setFee(address feeRecipient_, uint16 feeBps_) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _setFee(feeRecipient_, feeBps_);
    }

    /// @notice Stops listing, repricing, buying, every signed-order fill and every refinance; pauser only. Cancelling
    ///         still works.
    function pause() external onlyRole(PAUSER_ROLE) {
        _pause();
    }

    /// @notice Resumes the marketplace; pauser only.
    function unpause() external onlyRole(PAUSER_ROLE) {
        _unpause();
    }

    function _liveListing(uint256 tokenId) private view returns (Listing storage listing) {
        listing = _listings[tokenId];
        if (listing.seller == address(0)) revert NotListed(tokenId);
        (address owner, uint32 changes,) = note.ownershipOf(tokenId);
        if (owner != listing.seller || changes != listing.changes) revert ListingStale(tokenId);
    }

    function _checkPrice(uint256 price) private pure {
        if (price == 0 || price > type(uint64).max) revert InvalidPrice(price);
    }

    function _setFee(address feeRecipient_, uint16 feeBps_) private {
        if (feeRecipient_ == address(0)) revert ZeroAddress();
        if (feeBps_ > MAX_FEE_BPS) revert FeeTooHigh(feeBps_);
        feeRecipient = feeRecipient_;
        feeBps = feeBps_;
        emit FeeUpdated(feeRecipient_, feeBps_);
    }
}
