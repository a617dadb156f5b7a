// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {ICollateralEscrow} from "./interfaces/ICollateralEscrow.sol";
import {ILoanNote} from "./interfaces/ILoanNote.sol";

/**
 * @title CollateralEscrow
 * @notice Holds the ERC-721s pledged as loan collateral and keeps the allow-list of the collections that may be
 *         pledged. Created by LoanNote's constructor, so each knows the other without a setter; its admins are
 *         LoanNote's (DEFAULT_ADMIN_ROLE).
 * @dev Invariants:
 *      - An escrowed piece is recorded in `_pledges` for exactly one note from the `lock` that pulled it until it
 *        leaves (a refinance re-records it for the note that replaces its note, `move`, without moving it), and
 *        nothing else ever moves it: it leaves only to the note's borrower (`release` at the final payment
 *        or payoff, or their pull after a return the collection refused) or, after a default, to whoever the note's
 *        holder (or vault depositor) names as LoanNote burns the note (`settleByClaim`). The escrow never approves
 *        anyone for a piece. Only allowed collections can be locked; disallowing one later changes nothing for the
 *        loans already secured by it.
 *      - A repayment never depends on the collection: `release` never reverts for it (its transfer is a low-level
 *        call whose failure leaves the piece for the borrower to pull).
 *      - Reentrancy: `claimCollateral` has its own guard. `lock` and `release` run only inside LoanNote's guarded
 *        origination and final payment, so LoanNote's guard is theirs: a collection re-entering there reaches LoanNote
 *        only through `settleByClaim`, which that guard refuses, and nothing here it could misuse (the pledge being
 *        moved is recorded before the pull and deleted before the return). A second guard would cost every secured
 *        origination and final payment about 300 gas for no state it does not already protect.
 */
contract CollateralEscrow is ICollateralEscrow, ReentrancyGuardTransient {
    /// @dev The escrowed piece of a note, one slot while it is held, deleted as it leaves (the refund pays for most of
    ///      the release). `collection` is the piece's index in `collectionAt`; `returnFailed` marks a piece whose return
    ///      the collection refused, which only its borrower may pull. A token id of 2^80 - 1 or more is kept whole in
    ///      `_largeCollateralIds`.
    struct Pledge {
        address borrower;
        uint80 collateralId;
        uint8 collection;
        bool returnFailed;
    }

    /// @dev A collection's place in `collectionAt` (given once, kept when disallowed) and whether it may be pledged.
    struct CollectionEntry {
        uint8 index;
        bool allowed;
    }

    /// @notice How many collections can ever be registered: their index fits the pledge's slot.
    uint256 public constant MAX_COLLECTIONS = type(uint8).max;
    uint80 private constant LARGE_ID = type(uint80).max;

    /// @notice The note contract whose loans the pieces secure; the only one that locks and releases.
    ILoanNote public immutable loanNote;
    /// @dev Neither can be allowed as a collection.
    address private immutable _vault;
    address private immutable _stablecoin;

    mapping(address collection => CollectionEntry) private _collections;
    /// @notice The collection registered under each index (1-255); index zero means "none".
    address[256] public collectionAt;
    /// @notice How many collections have been registered so far.
    uint8 public collectionCount;
    mapping(uint256 tokenId => Pledge) private _pledges;
    mapping(uint256 tokenId => uint256) private _largeCollateralIds;

    modifier onlyLoanNote() {
        if (msg.sender != address(loanNote)) revert NotLoanNote(msg.sender);
        _;
    }

    /// @dev LoanNote's admins manage the allow-list; asking LoanNote keeps one list of admins.
    modifier onlyAdmin() {
        if (!IAccessControl(address(loanNote)).hasRole(0x00, msg.sender)) {
            revert IAccessControl.AccessControlUnauthorizedAccount(msg.sender, 0x00);
        }
        _;
    }

    /// @param loanNote_ The note contract (the creator).
    /// @param vault_ The note contract's vault.
    /// @param stablecoin_ The loans' stablecoin.
    constructor(address loanNote_, address vault_, address stablecoin_) {
        loanNote = ILoanNote(loanNote_);
        _vault = vault_;
        _stablecoin = stablecoin_;
    }

    // ---------------------------------------------------------------- escrow

    /// @inheritdoc ICollateralEscrow
    /// @dev The collection must be allowed, the borrower must hold the piece and have approved this escrow for it
    ///      (`approve` or `setApprovalForAll`).
    function lock(uint256 tokenId, address collection, uint256 collateralId, address borrower) external onlyLoanNote {
        CollectionEntry memory entry = _collections[collection];
        if (!entry.allowed) revert CollectionNotAllowed(collection);
        if (collateralId < LARGE_ID) {
            _pledges[tokenId] = Pledge(borrower, uint80(collateralId), entry.index, false);
        } else {
            _pledges[tokenId] = Pledge(borrower, LARGE_ID, entry.index, false);
            _largeCollateralIds[tokenId] = collateralId;
        }
        emit CollateralLocked(tokenId, collection, collateralId, borrower);
        _pull(IERC721(collection), borrower, collateralId);
    }

    /**
     * @inheritdoc ICollateralEscrow
     * @dev The record is deleted first; if the collection refuses (or has no code), it comes back marked
     *      `returnFailed` and the borrower pulls the piece later with `claimCollateral`, so no collection can block a
     *      repayment. The call's return data is never copied, and all but 1/64 of the gas left is forwarded (enough for
     *      the restore that follows). A note with nothing in escrow returns quietly.
     */
    function release(uint256 tokenId) external onlyLoanNote {
        Pledge memory pledge = _pledges[tokenId];
        if (pledge.borrower == address(0)) return;
        address collection = collectionAt[pledge.collection];
        uint256 collateralId = _collateralIdOf(tokenId, pledge);
        _release(tokenId, pledge);
        bytes4 selector = IERC721.transferFrom.selector;
        address borrower = pledge.borrower;
        bool ok;
        assembly ("memory-safe") {
            // transferFrom(this, borrower, collateralId), encoded past the free memory pointer and left there.
            let data := mload(0x40)
            mstore(data, selector)
            mstore(add(data, 4), address())
            mstore(add(data, 36), borrower)
            mstore(add(data, 68), collateralId)
            ok := call(gas(), collection, 0, data, 100, 0, 0)
        }
        if (ok && collection.code.length != 0) {
            emit CollateralReturned(tokenId, collection, collateralId, borrower);
        } else {
            pledge.returnFailed = true;
            _pledges[tokenId] = pledge;
            if (pledge.collateralId == LARGE_ID) _largeCollateralIds[tokenId] = collateralId;
            emit CollateralReturnFailed(tokenId, collection, collateralId, borrower);
        }
    }

    /// @inheritdoc ICollateralEscrow
    /// @dev The piece stays where it is: only the record's key changes, so no collection is called. An active secured
    ///      loan always has its record here (it leaves only at the final payment or after a default); LoanNote compares
    ///      the borrower returned with its caller's, so an empty record (a zero borrower) could never pass.
    function move(uint256 tokenId, uint256 newTokenId) external onlyLoanNote returns (address borrower) {
        Pledge memory pledge = _pledges[tokenId];
        borrower = pledge.borrower;
        uint256 collateralId = _collateralIdOf(tokenId, pledge);
        _release(tokenId, pledge);
        _pledges[newTokenId] = pledge;
        if (pledge.collateralId == LARGE_ID) _largeCollateralIds[newTokenId] = collateralId;
        emit CollateralMoved(tokenId, newTokenId, collectionAt[pledge.collection], collateralId);
    }

    /**
     * @notice Takes the escrowed piece of note `tokenId` out, to `to`:
     *         - after a default, the note's holder (or, while the vault holds the note, its depositor) claims it;
     *           LoanNote settles the loan and burns the note, and nothing more is owed on it;
     *         - after the final payment, if the collection refused to return the piece then, its borrower pulls it.
     *         Nobody else can ever move an escrowed piece; an active loan's piece stays in escrow.
     * @param to The receiver; the piece is sent with `safeTransferFrom`, so a contract must accept ERC-721s.
     */
    function claimCollateral(uint256 tokenId, address to) external nonReentrant {
        Pledge memory pledge = _pledges[tokenId];
        if (pledge.borrower == address(0)) revert NoCollateral(tokenId);
        if (to == address(0) || to == address(this) || to == address(loanNote)) revert InvalidCollateralRecipient(to);
        address collection = collectionAt[pledge.collection];
        uint256 collateralId = _collateralIdOf(tokenId, pledge);
        _release(tokenId, pledge);
        if (pledge.returnFailed) {
            if (msg.sender != pledge.borrower) revert NotEntitled(tokenId, msg.sender);
            emit CollateralReturned(tokenId, collection, collateralId, to);
        } else {
            // Reverts unless the loan defaulted and the caller is the note's beneficiary; burns the note.
            loanNote.settleByClaim(tokenId, msg.sender);
            emit CollateralClaimed(tokenId, collection, collateralId, to);
        }
        IERC721(collection).safeTransferFrom(address(this), to, collateralId);
    }

    /**
     * @dev Moves the pledged piece from the borrower into escrow and checks that it arrived. A refused transfer is
     *      explained: the borrower does not hold the piece, has not approved this escrow, or the collection failed.
     */
    function _pull(IERC721 collection, address borrower, uint256 collateralId) private {
        bytes4 selector = IERC721.transferFrom.selector;
        bool ok;
        assembly ("memory-safe") {
            // transferFrom(borrower, this, collateralId), encoded past the free memory pointer and left there; a
            // collection without code "succeeds" here and fails the arrival check below.
            let data := mload(0x40)
            mstore(data, selector)
            mstore(add(data, 4), borrower)
            mstore(add(data, 36), address())
            mstore(add(data, 68), collateralId)
            ok := call(gas(), collection, 0, data, 100, 0, 0)
        }
        if (!ok) {
            (bool held, bool approved) = _pledgeable(collection, borrower, collateralId);
            if (!held) revert CollateralNotHeld(address(collection), collateralId, borrower);
            if (!approved) revert CollateralNotApproved(address(collection), collateralId, borrower);
            revert CollateralTransferFailed(address(collection), collateralId);
        }
        // A collection that reports success without moving the piece secures nothing.
        if (_ownerIn(collection, collateralId) != address(this)) {
            revert CollateralNotReceived(address(collection), collateralId);
        }
    }

    /// @dev Whether `borrower` holds the piece and has approved this escrow for it; a failing view answers no.
    function _pledgeable(IERC721 collection, address borrower, uint256 collateralId)
        private
        view
        returns (bool held, bool approved)
    {
        held = _ownerIn(collection, collateralId) == borrower;
        approved = _viewWord(collection, abi.encodeCall(IERC721.getApproved, (collateralId))) == uint160(address(this))
            || _viewWord(collection, abi.encodeCall(IERC721.isApprovedForAll, (borrower, address(this)))) == 1;
    }

    /// @dev The owner the collection reports, zero when it reverts.
    function _ownerIn(IERC721 collection, uint256 collateralId) private view returns (address) {
        return address(uint160(_viewWord(collection, abi.encodeCall(IERC721.ownerOf, (collateralId)))));
    }

    /// @dev The first word a view of `collection` answers, zero when it reverts or answers less; copies no more.
    function _viewWord(IERC721 collection, bytes memory data) private view returns (uint256 word) {
        assembly ("memory-safe") {
            let ok := staticcall(gas(), collection, add(data, 32), mload(data), 0, 32)
            if and(ok, gt(returndatasize(), 31)) { word := mload(0) }
        }
    }

    function _collateralIdOf(uint256 tokenId, Pledge memory pledge) private view returns (uint256) {
        return pledge.collateralId == LARGE_ID ? _largeCollateralIds[tokenId] : pledge.collateralId;
    }

    function _release(uint256 tokenId, Pledge memory pledge) private {
        delete _pledges[tokenId];
        if (pledge.collateralId == LARGE_ID) delete _largeCollateralIds[tokenId];
    }

    // ---------------------------------------------------------------- allow-list

    /**
     * @notice Lets pieces of ERC-721 `collection` be pledged; LoanNote's admins only. A collection keeps the index it got
     *         the first time (at most MAX_COLLECTIONS ever). Neither LoanNote, its vault, the stablecoin nor this escrow
     *         can be allowed.
     */
    function allowCollection(address collection) external onlyAdmin {
        if (collection == address(0)) revert ZeroAddress();
        if (
            collection == address(loanNote) || collection == _vault || collection == _stablecoin
                || collection == address(this) || collection.code.length == 0
        ) revert InvalidCollection(collection);
        CollectionEntry memory entry = _collections[collection];
        if (entry.index == 0) {
            if (collectionCount == MAX_COLLECTIONS) revert TooManyCollections();
            entry.index = ++collectionCount;
            collectionAt[entry.index] = collection;
        }
        entry.allowed = true;
        _collections[collection] = entry;
        emit CollectionAllowed(collection, entry.index);
    }

    /// @notice Stops new pledges of `collection`; LoanNote's admins only. Loans it already secures are not affected.
    function disallowCollection(address collection) external onlyAdmin {
        if (!_collections[collection].allowed) revert CollectionNotAllowed(collection);
        _collections[collection].allowed = false;
        emit CollectionDisallowed(collection);
    }

    // ---------------------------------------------------------------- views

    /// @inheritdoc ICollateralEscrow
    function isCollectionAllowed(address collection) external view returns (bool) {
        return _collections[collection].allowed;
    }

    /// @inheritdoc ICollateralEscrow
    /// @dev All zero after a return or a claim (never had one, or it left: the Collateral* events keep the history).
    function collateralOf(uint256 tokenId)
        external
        view
        returns (address collection, uint256 collateralId, address borrower)
    {
        Pledge memory pledge = _pledges[tokenId];
        if (pledge.borrower == address(0)) return (address(0), 0, address(0));
        return (collectionAt[pledge.collection], _collateralIdOf(tokenId, pledge), pledge.borrower);
    }
}
