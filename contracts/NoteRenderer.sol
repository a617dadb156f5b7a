// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Base64} from "@openzeppelin/contracts/utils/Base64.sol";
import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";

/**
 * @title NoteRenderer
 * @notice Builds a note's ERC-721 metadata JSON and its SVG card entirely on-chain, for LoanNote's `tokenURI`.
 * @dev A contract of its own, deployed by LoanNote's constructor, so the text and SVG building takes no room in
 *      LoanNote's code (EIP-170's 24,576 bytes), which goes to the paths that move money. It holds no state.
 */
contract NoteRenderer {
    using Strings for uint256;

    /**
     * @notice The metadata of note `tokenId` as a base64 JSON data URI, naming its escrowed piece when it has one.
     * @param collection The pledged piece's collection, or the zero address for a note without collateral.
     * @param collateralId The pledged piece's token id (ignored without a collection).
     */
    function tokenURI(
        uint256 tokenId,
        uint256 principal,
        uint256 repaid,
        uint256 rateBps,
        uint256 termMonths,
        uint256 start,
        bool defaulted,
        address collection,
        uint256 collateralId
    ) external pure returns (string memory) {
        string memory extraAttributes = collection == address(0) ? "" : _collateralAttributes(collection, collateralId);
        string memory id = tokenId.toString();
        string memory principalUsd = _twoDecimals(principal / 1e4);
        string memory repaidUsd = _twoDecimals(repaid / 1e4);
        string memory rate = string.concat(_twoDecimals(rateBps), "%");
        string memory status = defaulted ? "Defaulted" : "Active";
        string memory json = string.concat(
            '{"name":"LoanMint Note #',
            id,
            '","description":"Loan note #',
            id,
            ' of LoanMint: its holder receives the repayments of a ',
            termMonths.toString(),
            '-month loan.","image":"data:image/svg+xml;base64,',
            Base64.encode(bytes(_svg(id, principalUsd, repaidUsd, rate, termMonths, status))),
            '","attributes":[{"trait_type":"Principal (USD)","value":"',
            principalUsd,
            '"},{"trait_type":"Rate","value":"',
            rate,
            '"},{"trait_type":"Term (months)","display_type":"number","value":',
            termMonths.toString(),
            string.concat(
                '},{"trait_type":"Repaid (USD)","value":"',
                repaidUsd,
                '"},{"trait_type":"Status","value":"',
                status,
                '"},{"trait_type":"Start","display_type":"date","value":',
                start.toString(),
                "}",
                extraAttributes,
                "]}"
            )
        );
        return string.concat("data:application/json;base64,", Base64.encode(bytes(json)));
    }

    /// @dev The attributes naming a note's escrowed collateral, each preceded by a comma (appended to the list).
    function _collateralAttributes(address collection, uint256 collateralId) private pure returns (string memory) {
        return string.concat(
            ',{"trait_type":"Collateral collection","value":"',
            Strings.toHexString(collection),
            '"},{"trait_type":"Collateral token id","value":"',
            collateralId.toString(),
            '"}'
        );
    }

    function _svg(
        string memory id,
        string memory principalUsd,
        string memory repaidUsd,
        string memory rate,
        uint256 termMonths,
        string memory status
    ) private pure returns (string memory) {
        return string.concat(
            '<svg xmlns="http://www.w3.org/2000/svg" width="360" height="220" viewBox="0 0 360 220">',
            '<rect width="360" height="220" rx="16" fill="#0f172a"/>',
            '<g font-family="sans-serif" fill="#e2e8f0"><text x="24" y="44" font-size="22">LoanMint Note #',
            id,
            '</text><text x="24" y="92" font-size="16">Principal $',
            principalUsd,
            '</text><text x="24" y="120" font-size="16">',
            rate,
            string.concat(
                " for ",
                termMonths.toString(),
                ' months</text><text x="24" y="148" font-size="16">Repaid $',
                repaidUsd,
                '</text><text x="24" y="192" font-size="14" fill="#94a3b8">',
                status,
                "</text></g></svg>"
            )
        );
    }

    /// @dev `value` hundredths as "whole.cc".
    function _twoDecimals(uint256 value) private pure returns (string memory) {
        uint256 cents = value % 100;
        return string.concat((value / 100).toString(), cents < 10 ? ".0" : ".", cents.toString());
    }
}
