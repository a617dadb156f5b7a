// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {Listing, Offer, MatchingOffer, OrderTypes} from "./libraries/OrderTypes.sol";
import {ILoanNote} from "./interfaces/ILoanNote.sol";

/**
 * @title NoteOrders
 * @notice Orders signed off-chain (EIP-712) by an EOA or an EIP-1271 contract wallet and filled here: listings, offers
 *         on one note and offers on any note whose terms match. Signing, repricing and cancelling by a new counter
 *         cost the signer nothing until a fill.
 * @dev Invariants:
 *      - No order fills after its expiry, once its signer's counter moved past its own, once its signer cancelled
 *        it, or with a signature its signer did not give (65-byte low-s ECDSA, or the signer's EIP-1271 answer).
 *      - An order fills only at a note state its signer accepted: a fixed price while the note's change count is
 *        the signed one (every transfer, repayment and default changes it); a par price while the note is active
 *        and, for a listing, held by its seller; a matching offer only for a note inside every signed range; and
 *        every order only while the note is at most its signed `maxDaysPastDue` days past due (zero: current only).
 *      - A par price is floor(parBps * outstanding principal at the fill / 10,000) plus the interest accrued and
 *        unpaid then, so 100% of par is exactly what would settle the note at that second; an offer's at most its cap.
 *      - A single-use order fills at most once: a fixed-price one because its own fill moves the note (its change
 *        count no longer matches), a par one because its fill marks it used. A matching offer's fills never
 *        total more than its budget.
 *      - Money is pulled only from the caller (a listing's buyer) or from an offer's verified signer, never more
 *        than the buyer named (maxPrice) or signed; the seller receives price - fee and the fee recipient the fee.
 */
abstract contract NoteOrders is EIP712, Pausable, ReentrancyGuardTransient {
    uint256 private constant BPS = 10_000;
    /// @dev `_used` value of a single-use order filled, or of any order cancelled.
    uint256 private constant USED = type(uint256).max;

    /// @notice The LoanNote contract whose notes are traded.
    ILoanNote public immutable note;

    /// @notice Per signer: orders signed with any other counter never fill.
    mapping(address signer => uint256) public counterOf;
    /// @dev Per signer and order hash: USED, or a matching offer's total filled so far.
    mapping(address signer => mapping(bytes32 orderHash => uint256)) private _used;

    error OrderExpired(bytes32 orderHash);
    error OrderUnavailable(bytes32 orderHash);
    error InvalidSignature(bytes32 orderHash);
    error OrderStale(bytes32 orderHash);
    error NoteNotMatching(bytes32 orderHash, uint256 tokenId);
    error BudgetExceeded(bytes32 orderHash, uint256 price, uint256 remaining);
    error NotNoteHolder(uint256 tokenId, address caller);
    error PriceAboveMax(uint256 price, uint256 maxPrice);
    error PriceBelowMin(uint256 price, uint256 minPrice);
    /// @notice The note is further past due than the order allows (`maxDaysPastDue`, or zero for a plain listing).
    error NoteLate(uint256 tokenId, uint256 daysPastDue);

    event OrderFilled(
        bytes32 indexed orderHash,
        uint256 indexed tokenId,
        address indexed seller,
        address buyer,
        uint256 price,
        uint256 fee
    );
    event OrderCancelled(address indexed signer, bytes32 indexed orderHash);
    event CounterIncremented(address indexed signer, uint256 counter);

    constructor(address note_) EIP712("LoanMint Marketplace", "1") {
        note = ILoanNote(note_);
    }

    // ---------------------------------------------------------------- fills

    /**
     * @notice Buys the note of a signed `listing` at its price now, which must be at most `maxPrice`; the caller
     *         pays from their stablecoin allowance to this marketplace.
     * @param listing The seller's signed listing.
     * @param signature The seller's EIP-712 signature (65 bytes) or their EIP-1271 wallet's.
     * @param maxPrice The most the caller pays; a par price above it (or a fixed one) reverts.
     */
    function fillListing(Listing calldata listing, bytes calldata signature, uint256 maxPrice)
        external
        whenNotPaused
        nonReentrant
    {
        _fillListing(listing, signature, maxPrice);
    }

    /// @notice `fillListing` after an ERC-2612 permit of `maxPrice` for this marketplace, in one transaction.
    /// @dev A permit already used (for example front-run) is ignored; the allowance then decides.
    function fillListingWithPermit(
        Listing calldata listing,
        bytes calldata signature,
        uint256 maxPrice,
        uint256 deadline,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external whenNotPaused nonReentrant {
        _permit(maxPrice, deadline, v, r, s);
        _fillListing(listing, signature, maxPrice);
    }

    /**
     * @notice Sells the caller's note to the signer of `offer` at its price now, which must be at least
     *         `minPrice`; the caller must hold the note and have approved this marketplace for it, and the buyer
     *         pays from their stablecoin allowance.
     * @param offer The buyer's signed offer on one note.
     * @param signature The buyer's EIP-712 signature (65 bytes) or their EIP-1271 wallet's.
     * @param minPrice The least the caller accepts.
     */
    function acceptOffer(Offer calldata offer, bytes calldata signature, uint256 minPrice)
        external
        whenNotPaused
        nonReentrant
    {
        bytes32 orderHash = hashOffer(offer);
        _checkOrder(orderHash, offer.buyer, offer.counter, offer.expiry, signature);
        uint256 price;
        if (offer.parBps == 0) {
            (address owner, uint32 changes, uint256 daysPastDue) = note.ownershipOf(offer.tokenId);
            if (owner != msg.sender) revert NotNoteHolder(offer.tokenId, msg.sender);
            if (changes != offer.changes) revert OrderStale(orderHash);
            _checkLate(offer.tokenId, daysPastDue, offer.maxDaysPastDue);
            price = offer.price;
        } else {
            ILoanNote.NoteState memory state = note.noteStateOf(offer.tokenId);
            if (state.owner != msg.sender) revert NotNoteHolder(offer.tokenId, msg.sender);
            if (state.status != ILoanNote.Status.Active) revert OrderStale(orderHash);
            _checkLate(offer.tokenId, state.daysPastDue, offer.maxDaysPastDue);
            price = Math.min(_parPrice(state, offer.parBps), offer.cap);
            _used[offer.buyer][orderHash] = USED;
        }
        if (price < minPrice) revert PriceBelowMin(price, minPrice);
        _filled(orderHash, offer.tokenId, msg.sender, offer.buyer, price);
    }

    /**
     * @notice Sells the caller's note `tokenId` to the signer of a matching `offer` at its par price now, which
     *         must be at least `minPrice`; the note must be active, inside every signed range and no further past due
     *         than signed, and the price must fit in what is left of the offer's budget.
     * @param offer The buyer's signed offer on any matching note.
     * @param signature The buyer's EIP-712 signature (65 bytes) or their EIP-1271 wallet's.
     * @param tokenId The caller's note.
     * @param minPrice The least the caller accepts.
     */
    function acceptMatchingOffer(MatchingOffer calldata offer, bytes calldata signature, uint256 tokenId, uint256 minPrice)
        external
        whenNotPaused
        nonReentrant
    {
        bytes32 orderHash = hashMatchingOffer(offer);
        uint256 spent = _checkOrder(orderHash, offer.buyer, offer.counter, offer.expiry, signature);
        ILoanNote.NoteState memory state = note.noteStateOf(tokenId);
        if (state.owner != msg.sender) revert NotNoteHolder(tokenId, msg.sender);
        uint256 termLeft = Math.saturatingSub(state.maturity, block.timestamp);
        if (
            state.status != ILoanNote.Status.Active || _outside(state.rateBps, offer.minRateBps, offer.maxRateBps)
                || _outside(termLeft, offer.minTermLeft, offer.maxTermLeft)
                || _outside(state.outstanding, offer.minOutstanding, offer.maxOutstanding)
        ) revert NoteNotMatching(orderHash, tokenId);
        _checkLate(tokenId, state.daysPastDue, offer.maxDaysPastDue);
        uint256 price = _parPrice(state, offer.parBps);
        if (price > offer.budget - spent) revert BudgetExceeded(orderHash, price, offer.budget - spent);
        if (price < minPrice) revert PriceBelowMin(price, minPrice);
        _recordSpent(offer.buyer, orderHash, spent + price);
        _filled(orderHash, tokenId, msg.sender, offer.buyer, price);
    }

    // ---------------------------------------------------------------- cancelling

    /// @notice Cancels the caller's orders with these EIP-712 hashes (also while paused); an order already used
    ///         stays as it is. Only the caller's own orders are affected, whatever hashes they pass.
    function cancelOrders(bytes32[] calldata orderHashes) external {
        for (uint256 i = 0; i < orderHashes.length; ++i) {
            _used[msg.sender][orderHashes[i]] = USED;
            emit OrderCancelled(msg.sender, orderHashes[i]);
        }
    }

    /// @notice Cancels every order the caller signed so far (also while paused): new ones use the new counter.
    function incrementCounter() external returns (uint256 counter) {
        counter = ++counterOf[msg.sender];
        emit CounterIncremented(msg.sender, counter);
    }

    // ---------------------------------------------------------------- views

    /// @notice The EIP-712 digest a seller signs for `listing`; also the id in OrderFilled and OrderCancelled.
    function hashListing(Listing calldata listing) public view returns (bytes32) {
        return _hashTypedDataV4(OrderTypes.hash(listing));
    }

    /// @notice The EIP-712 digest a buyer signs for `offer`.
    function hashOffer(Offer calldata offer) public view returns (bytes32) {
        return _hashTypedDataV4(OrderTypes.hash(offer));
    }

    /// @notice The EIP-712 digest a buyer signs for a matching `offer`.
    function hashMatchingOffer(MatchingOffer calldata offer) public view returns (bytes32) {
        return _hashTypedDataV4(OrderTypes.hash(offer));
    }

    /// @notice Whether `signer` cancelled the order or it filled for good, and what a matching offer has spent.
    function orderStatus(address signer, bytes32 orderHash) external view returns (bool used, uint256 filled) {
        uint256 value = _used[signer][orderHash];
        return value == USED ? (true, 0) : (false, value);
    }

    // ---------------------------------------------------------------- internals

    /// @dev Moves `price` from `buyer` (minus the fee, to `seller`; the fee to the fee recipient) and the note from
    ///      `seller` to `buyer`; returns nothing, reverts on any failed transfer.
    function _settle(address seller, address buyer, uint256 tokenId, uint256 price, uint256 fee) internal virtual;

    /// @dev The fee of a sale at `price`.
    function _feeOf(uint256 price) internal view virtual returns (uint256);

    /// @dev ERC-2612 permit of `value` from the caller to this marketplace; a failed one is ignored.
    function _permit(uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s) internal virtual;

    function _fillListing(Listing calldata listing, bytes calldata signature, uint256 maxPrice) private {
        bytes32 orderHash = hashListing(listing);
        _checkOrder(orderHash, listing.seller, listing.counter, listing.expiry, signature);
        uint256 price;
        if (listing.parBps == 0) {
            (address owner, uint32 changes, uint256 daysPastDue) = note.ownershipOf(listing.tokenId);
            if (owner != listing.seller || changes != listing.changes) revert OrderStale(orderHash);
            _checkLate(listing.tokenId, daysPastDue, listing.maxDaysPastDue);
            price = listing.price;
        } else {
            ILoanNote.NoteState memory state = note.noteStateOf(listing.tokenId);
            if (state.owner != listing.seller || state.status != ILoanNote.Status.Active) revert OrderStale(orderHash);
            _checkLate(listing.tokenId, state.daysPastDue, listing.maxDaysPastDue);
            price = _parPrice(state, listing.parBps);
            _used[listing.seller][orderHash] = USED;
        }
        if (price > maxPrice) revert PriceAboveMax(price, maxPrice);
        _filled(orderHash, listing.tokenId, listing.seller, msg.sender, price);
    }

    /// @dev Refuses an expired, cancelled, used or old-counter order and a signature not from `signer`; returns
    ///      what a matching offer has spent so far.
    function _checkOrder(bytes32 orderHash, address signer, uint256 counter, uint256 expiry, bytes calldata signature)
        internal
        view
        returns (uint256 spent)
    {
        if (block.timestamp > expiry) revert OrderExpired(orderHash);
        spent = _used[signer][orderHash];
        if (spent == USED || counter != counterOf[signer]) revert OrderUnavailable(orderHash);
        // ECDSA first: a valid EOA signature needs no code lookup. It takes 65-byte, low-s signatures only.
        (address recovered, ECDSA.RecoverError err,) = ECDSA.tryRecoverCalldata(orderHash, signature);
        if (err == ECDSA.RecoverError.NoError && recovered == signer) return spent;
        if (!SignatureChecker.isValidERC1271SignatureNowCalldata(signer, orderHash, signature)) {
            revert InvalidSignature(orderHash);
        }
    }

    function _filled(bytes32 orderHash, uint256 tokenId, address seller, address buyer, uint256 price) private {
        uint256 fee = _feeOf(price);
        emit OrderFilled(orderHash, tokenId, seller, buyer, price, fee);
        _settle(seller, buyer, tokenId, price, fee);
    }

    /// @dev Refuses a note further past due than its order allows; shared with the plain listings (allowing none).
    function _checkLate(uint256 tokenId, uint256 daysPastDue, uint256 maxDaysPastDue) internal pure {
        if (daysPastDue > maxDaysPastDue) revert NoteLate(tokenId, daysPastDue);
    }

    /// @dev parBps of the outstanding principal, rounded down, plus the interest accrued and unpaid, paid in full.
    function _parPrice(ILoanNote.NoteState memory state, uint256 parBps) private pure returns (uint256) {
        return (state.outstanding * parBps) / BPS + state.interest;
    }

    /// @dev Records what a budgeted order (a matching offer) has spent so far.
    function _recordSpent(address signer, bytes32 orderHash, uint256 spent) internal {
        _used[signer][orderHash] = spent;
    }

    function _outside(uint256 value, uint256 min, uint256 max) internal pure returns (bool) {
        return value < min || value > max;
    }
}
