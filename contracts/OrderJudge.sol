// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {IERC721Receiver} from "@openzeppelin/contracts/token/ERC721/IERC721Receiver.sol";

/**
 * @title OrderJudge
 * @notice Never deployed: an `eth_call`'s state override puts this runtime code at a helper address (and at the
 *         addresses whose fills it simulates), so the order book is judged in one call per block whatever its size.
 * @dev `read` answers many view calls at once (as Multicall3's aggregate3 with every failure allowed). `judge` simulates
 *      many fills, each from its own sender and each undone before the next: the sender runs `probe`, which does the
 *      sender's first step, makes the call and always reverts with the outcome, so no fill sees another's effects.
 *      A sender with this code behaves as an account without code towards the marketplace: it accepts ERC-721s and
 *      ether, and signs nothing (signatures of accounts are checked by ECDSA first).
 */
contract OrderJudge is IERC721Receiver {
    /// @notice A view call: where and what.
    struct Read {
        address target;
        bytes data;
    }

    /// @notice A fill to simulate: `sender` calls `target` with `data`, after approving `operator` for all its
    ///         ERC-721s of `approveOn` when that is not the zero address.
    struct Fill {
        address sender;
        address target;
        bytes data;
        address approveOn;
        address operator;
    }

    /// @notice What a call answered: whether it went through, and its return or revert data.
    struct Result {
        bool success;
        bytes returnData;
    }

    /// @notice How `probe` ends, always: the simulated call's outcome, with every change it made undone.
    error Probed(bool success, bytes returnData);

    /// @notice Makes every view call and answers each one's outcome, failures included.
    /// @param reads The calls.
    /// @return results One outcome per call, in order.
    function read(Read[] calldata reads) external returns (Result[] memory results) {
        results = new Result[](reads.length);
        for (uint256 i; i < reads.length; ++i) {
            (results[i].success, results[i].returnData) = reads[i].target.call(reads[i].data);
        }
    }

    /// @notice The size of each account's code: a sender that has code of its own is not simulated here.
    /// @param accounts The accounts.
    /// @return sizes One size per account, in order.
    function codeSizes(address[] calldata accounts) external view returns (uint256[] memory sizes) {
        sizes = new uint256[](accounts.length);
        for (uint256 i; i < accounts.length; ++i) {
            sizes[i] = accounts[i].code.length;
        }
    }

    /// @notice Simulates every fill from its sender (whose code must be this contract's), each in isolation.
    /// @param fills The fills.
    /// @return results One outcome per fill, in order: the fill's own, or the probe's failure when it could not run.
    function judge(Fill[] calldata fills) external returns (Result[] memory results) {
        results = new Result[](fills.length);
        for (uint256 i; i < fills.length; ++i) {
            Fill calldata fill = fills[i];
            (, bytes memory answer) =
                fill.sender.call(abi.encodeCall(this.probe, (fill.target, fill.data, fill.approveOn, fill.operator)));
            if (answer.length >= 4 && bytes4(answer) == Probed.selector) {
                bytes memory encoded;
                // The answer without its selector: the error's arguments, ABI-encoded.
                assembly {
                    encoded := add(answer, 4)
                    mstore(encoded, sub(mload(answer), 4))
                }
                (results[i].success, results[i].returnData) = abi.decode(encoded, (bool, bytes));
            } else {
                results[i] = Result(false, answer);
            }
        }
    }

    /// @notice Run as a fill's sender: its first step, then the call, then a revert carrying the outcome.
    /// @param target The contract called.
    /// @param data The call.
    /// @param approveOn The ERC-721 the sender approves `operator` on first; zero for none.
    /// @param operator Who is approved.
    function probe(address target, bytes calldata data, address approveOn, address operator) external {
        if (approveOn != address(0)) IERC721(approveOn).setApprovalForAll(operator, true);
        (bool success, bytes memory returnData) = target.call(data);
        revert Probed(success, returnData);
    }

    /// @notice Accepts every ERC-721, as an account without code does.
    function onERC721Received(address, address, uint256, bytes calldata) external pure returns (bytes4) {
        return IERC721Receiver.onERC721Received.selector;
    }

    /// @notice Accepts ether, as an account without code does.
    receive() external payable {}
}
