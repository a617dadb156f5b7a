// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC1271} from "@openzeppelin/contracts/interfaces/IERC1271.sol";

// Not declared as IERC1271: its check is not `view`, which the interface forbids; the selector is the same.
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// @dev Test only: an EIP-1271 wallet that, asked whether it signed, first tries a call (`arm`) into whoever asks; it
///      answers yes when its owner's key signed the hash, whatever that call did.
contract ReenteringWallet {
    address public immutable owner;
    address public target;
    bytes public data;

    constructor(address owner_) {
        owner = owner_;
    }

    function arm(address target_, bytes calldata data_) external {
        (target, data) = (target_, data_);
    }

    /// @dev Not `view` on purpose: it attempts a state-changing call; the caller's staticcall makes it fail.
    function isValidSignature(bytes32 hash, bytes calldata signature) external returns (bytes4) {
        if (target != address(0)) {
            (bool ok,) = target.call(data);
            ok; // the outcome is observed by the test through the target's state
        }
        (address signer, ECDSA.RecoverError err,) = ECDSA.tryRecoverCalldata(hash, signature);
        return err == ECDSA.RecoverError.NoError && signer == owner ? IERC1271.isValidSignature.selector : bytes4(0);
    }

    function execute(address to, bytes calldata callData) external returns (bytes memory) {
        require(msg.sender == owner, "not the owner");
        (bool ok, bytes memory result) = to.call(callData);
        require(ok, "call failed");
        return result;
    }
}
