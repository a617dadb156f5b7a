// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC721Receiver} from "@openzeppelin/contracts/token/ERC721/IERC721Receiver.sol";
import {Reenterer} from "./Reenterer.sol";

/// @dev Test only: an ERC-721 receiver that tries to re-enter a contract when it receives a note.
contract MaliciousReceiver is IERC721Receiver, Reenterer {
    function onERC721Received(address, address, uint256, bytes calldata) external returns (bytes4) {
        _reenter();
        return IERC721Receiver.onERC721Received.selector;
    }
}
