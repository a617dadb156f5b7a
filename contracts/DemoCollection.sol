// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {Base64} from "@openzeppelin/contracts/utils/Base64.sol";
import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";

/**
 * @title DemoCollection (LoanMint Demo Art)
 * @notice The local chain's NFT collection to pledge as collateral: every piece is drawn on-chain (an SVG of shapes
 *         and colours derived from its token id), a minter role mints for the deploy's seed, and a rate-limited
 *         faucet gives dev wallets a piece, as TestDollar's faucet gives dollars. Never deployed off the local chain.
 * @dev Token ids are consecutive from 1; the drawing depends on nothing but the id, so it never changes.
 */
contract DemoCollection is ERC721, AccessControl {
    using Strings for uint256;

    bytes32 public constant MINTER_ROLE = keccak256("MINTER_ROLE");

    /// @notice Seconds an address waits between two faucet calls.
    uint64 public faucetCooldown;
    /// @notice How many pieces exist (the last id minted).
    uint256 public totalMinted;
    mapping(address account => uint256) public lastFaucetAt;

    /// @notice The faucet was called again before its cooldown ended.
    error FaucetCooldown(address account, uint256 availableAt);

    event FaucetConfigured(uint256 cooldown);
    event FaucetUsed(address indexed account, uint256 indexed tokenId);

    /// @param admin Receives the admin and minter roles.
    /// @param cooldown Seconds between two faucet calls of one address.
    constructor(address admin, uint64 cooldown) ERC721("LoanMint Demo Art", "LMART") {
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(MINTER_ROLE, admin);
        faucetCooldown = cooldown;
        emit FaucetConfigured(cooldown);
    }

    /// @notice Mints the next piece to `to`; minter role only. Returns its token id.
    function mint(address to) external onlyRole(MINTER_ROLE) returns (uint256 tokenId) {
        tokenId = ++totalMinted;
        _mint(to, tokenId);
    }

    /// @notice Mints the next piece to the caller, at most once per cooldown. Returns its token id.
    function faucet() external returns (uint256 tokenId) {
        uint256 last = lastFaucetAt[msg.sender];
        if (last != 0 && block.timestamp < last + faucetCooldown) {
            revert FaucetCooldown(msg.sender, last + faucetCooldown);
        }
        lastFaucetAt[msg.sender] = block.timestamp;
        tokenId = ++totalMinted;
        _mint(msg.sender, tokenId);
        emit FaucetUsed(msg.sender, tokenId);
    }

    /// @notice Sets the faucet's cooldown; admin only.
    function setFaucetCooldown(uint64 cooldown) external onlyRole(DEFAULT_ADMIN_ROLE) {
        faucetCooldown = cooldown;
        emit FaucetConfigured(cooldown);
    }

    /// @notice On-chain JSON metadata (ERC-721 metadata schema) whose image is an SVG drawn from the token id.
    function tokenURI(uint256 tokenId) public view override returns (string memory) {
        _requireOwned(tokenId);
        string memory id = tokenId.toString();
        uint256 seed = uint256(keccak256(abi.encode(tokenId)));
        string memory hue = (seed % 360).toString();
        string memory json = string.concat(
            '{"name":"LoanMint Demo Art #',
            id,
            '","description":"A demo piece drawn on-chain, to pledge as collateral on LoanMint\'s local chain.",',
            '"image":"data:image/svg+xml;base64,',
            Base64.encode(bytes(_svg(seed))),
            '","attributes":[{"trait_type":"Hue","display_type":"number","value":',
            hue,
            '},{"trait_type":"Shapes","display_type":"number","value":',
            (3 + (seed >> 200) % 3).toString(),
            "}]}"
        );
        return string.concat("data:application/json;base64,", Base64.encode(bytes(json)));
    }

    /// @dev A square canvas in one hue and three to five circles and squares in others, placed by the seed's bits.
    function _svg(uint256 seed) private pure returns (string memory shapes) {
        uint256 hue = seed % 360;
        shapes = string.concat(
            '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="320" viewBox="0 0 320 320"><rect width="320" height="320" fill="hsl(',
            hue.toString(),
            ',60%,20%)"/>'
        );
        uint256 count = 3 + (seed >> 200) % 3;
        for (uint256 i = 0; i < count; ++i) {
            uint256 bits = seed >> (i * 32 + 9);
            string memory x = (40 + bits % 240).toString();
            string memory y = (40 + (bits >> 8) % 240).toString();
            string memory size = (20 + (bits >> 16) % 60).toString();
            string memory fill = string.concat(
                'fill="hsl(', ((hue + 60 + ((bits >> 24) % 240)) % 360).toString(), ',75%,60%)" fill-opacity="0.85"/>'
            );
            shapes = string.concat(
                shapes,
                i % 2 == 0
                    ? string.concat('<circle cx="', x, '" cy="', y, '" r="', size, '" ', fill)
                    : string.concat('<rect x="', x, '" y="', y, '" width="', size, '" height="', size, '" ', fill)
            );
        }
        shapes = string.concat(shapes, "</svg>");
    }

    /// @inheritdoc ERC721
    function supportsInterface(bytes4 interfaceId) public view override(ERC721, AccessControl) returns (bool) {
        return super.supportsInterface(interfaceId);
    }
}
