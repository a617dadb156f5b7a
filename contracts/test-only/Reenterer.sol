// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @dev Test only: calls `target` with `data` once from inside a callback and records the outcome.
abstract contract Reenterer {
    address public target;
    bytes public data;
    bool public attempted;
    bool public succeeded;
    bytes public returned;

    function arm(address target_, bytes calldata data_) external {
        target = target_;
        data = data_;
        attempted = false;
    }

    function _reenter() internal {
        if (target == address(0) || attempted) return;
        attempted = true;
        (succeeded, returned) = target.call(data);
    }

    /// @dev Lets the attacker act as an ordinary account in the tests.
    function execute(address to, bytes calldata callData) external returns (bytes memory) {
        (bool ok, bytes memory result) = to.call(callData);
        if (!ok) {
            assembly {
                revert(add(result, 32), mload(result))
            }
        }
        return result;
    }
}
