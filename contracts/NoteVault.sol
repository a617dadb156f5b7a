// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {IERC721Receiver} from "@openzeppelin/contracts/token/ERC721/IERC721Receiver.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";

/**
 * @title NoteVault
 * @notice Holds loan notes for their depositors. Only the depositor withdraws a note; while a note is
 *         here, LoanNote credits its repayments to the depositor. Created by LoanNote's constructor, so each
 *         knows the other without a setter.
 * @dev Invariant: every note this vault holds has a non-zero depositor. The one place a depositor is
 *      recorded is `recordDeposit`, which LoanNote calls from its transfer hook for every note arriving here,
 *      whichever way it was sent (`deposit`, `safeTransferFrom` or a plain `transferFrom`); the record is
 *      deleted only as the note leaves (`withdraw`, the vault's only way to move a note).
 */
contract NoteVault is IERC721Receiver, ReentrancyGuardTransient {
    /// @notice The LoanNote contract whose notes this vault accepts.
    IERC721 public immutable note;

    mapping(uint256 tokenId => address) private _depositors;

    /// @notice Only LoanNote tokens are accepted.
    error UnsupportedToken(address token);
    /// @notice Only the depositor of `tokenId` may withdraw it.
    error NotDepositor(uint256 tokenId, address caller);
    /// @notice Withdrawals go to a real address other than the vault.
    error InvalidRecipient(address to);
    /// @notice A note arriving from nobody (a mint) would have no depositor to credit or to withdraw it.
    error InvalidDepositor(address depositor);

    event Deposited(uint256 indexed tokenId, address indexed depositor);
    event Withdrawn(uint256 indexed tokenId, address indexed depositor, address indexed to);

    constructor(address note_) {
        note = IERC721(note_);
    }

    /// @notice The account that deposited `tokenId` (zero when not deposited).
    function depositorOf(uint256 tokenId) external view returns (address) {
        return _depositors[tokenId];
    }

    /**
     * @notice Deposits a note the caller owns; the vault must be approved for it. A plain `transferFrom` or a
     *         `safeTransferFrom` of the note to the vault deposits it just the same.
     * @dev The transfer records the depositor through `recordDeposit`.
     */
    function deposit(uint256 tokenId) external nonReentrant {
        note.transferFrom(msg.sender, address(this), tokenId);
    }

    /**
     * @notice Records `depositor` as the depositor of `tokenId`, which has just arrived here; LoanNote only,
     *         from its transfer hook, for every note sent to the vault.
     * @param depositor The note's previous owner; never the zero address.
     */
    function recordDeposit(uint256 tokenId, address depositor) external {
        if (msg.sender != address(note)) revert UnsupportedToken(msg.sender);
        if (depositor == address(0)) revert InvalidDepositor(depositor);
        _depositors[tokenId] = depositor;
        emit Deposited(tokenId, depositor);
    }

    /// @notice Accepts LoanNote notes sent with `safeTransferFrom`; their depositor is already recorded.
    function onERC721Received(address, address, uint256, bytes calldata) external view returns (bytes4) {
        if (msg.sender != address(note)) revert UnsupportedToken(msg.sender);
        return IERC721Receiver.onERC721Received.selector;
    }

    /// @notice Sends `tokenId` to `to`; depositor only.
    function withdraw(uint256 tokenId, address to) external nonReentrant {
        if (_depositors[tokenId] != msg.sender) revert NotDepositor(tokenId, msg.sender);
        if (to == address(0) || to == address(this)) revert InvalidRecipient(to);
        delete _depositors[tokenId];
        emit Withdrawn(tokenId, msg.sender, to);
        note.safeTransferFrom(address(this), to, tokenId);
    }
}
