// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";

/**
 * @dev Test only: an ERC-721 whose name and metadata are whatever an attacker sets (markup in the names, script in
 *      an SVG, an HTML "image"), so the browser journeys can check that the app shows another collection's piece
 *      only as text and an `<img>` of a checked image data URI.
 */
contract HostileMetadataCollection is ERC721 {
    mapping(uint256 tokenId => string) private _uris;

    constructor(string memory name_) ERC721(name_, "EVIL") {}

    function mint(address to, uint256 tokenId, string calldata uri) external {
        _uris[tokenId] = uri;
        _mint(to, tokenId);
    }

    function tokenURI(uint256 tokenId) public view override returns (string memory) {
        _requireOwned(tokenId);
        return _uris[tokenId];
    }
}
