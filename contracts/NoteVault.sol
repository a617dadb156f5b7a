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
     * @notice Deposits a note the caller owns; the vault must be approved for it.
     * @dev Uses transferFrom so the record is written once here rather than in the receiver hook.
     */
    function deposit(uint256 tokenId) external nonReentrant {
        _depositors[tokenId] = msg.sender;
        emit Deposited(tokenId, msg.sender);
        note.transferFrom(msg.sender, address(this), tokenId);
    }

    /// @notice Records a deposit made with `safeTransferFrom(owner, vault, tokenId)`; the previous owner is the depositor.
    function onERC721Received(address, address from, uint256 tokenId, bytes calldata) external returns (bytes4) {
        if (msg.sender != address(note)) revert UnsupportedToken(msg.sender);
        _depositors[tokenId] = from;
        emit Deposited(tokenId, from);
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
