// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";

/// @dev Gas baseline only: a plain OpenZeppelin ERC-721 with an open mint.
contract BaselineERC721 is ERC721 {
    constructor() ERC721("Baseline", "BASE") {}

    function mint(address to, uint256 tokenId) external {
        _mint(to, tokenId);
    }
}
