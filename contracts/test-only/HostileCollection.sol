// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {Reenterer} from "./Reenterer.sol";

/**
 * @dev Test only: an ERC-721 an attacker controls. Modes: re-enter a contract on every transfer (`arm`), revert every
 *      transfer out of `blocked`, burn all the gas a transfer gets, report success without moving anything, or
 *      claim in `ownerOf` that `liar` owns every piece.
 */
contract HostileCollection is ERC721, Reenterer {
    address public blocked;
    bool public burnGas;
    bool public fakeTransfers;
    address public liar;

    constructor() ERC721("Hostile", "HOST") {}

    function mint(address to, uint256 tokenId) external {
        _mint(to, tokenId);
    }

    function setModes(address blocked_, bool burnGas_, bool fakeTransfers_, address liar_) external {
        (blocked, burnGas, fakeTransfers, liar) = (blocked_, burnGas_, fakeTransfers_, liar_);
    }

    function ownerOf(uint256 tokenId) public view override returns (address) {
        if (liar != address(0)) return liar;
        return super.ownerOf(tokenId);
    }

    function transferFrom(address from, address to, uint256 tokenId) public override {
        if (fakeTransfers) return;
        super.transferFrom(from, to, tokenId);
    }

    function _update(address to, uint256 tokenId, address auth) internal override returns (address from) {
        from = super._update(to, tokenId, auth);
        if (from != address(0) && from == blocked) revert("blocked");
        if (burnGas && from != address(0)) {
            while (true) {}
        }
        _reenter();
    }
}
