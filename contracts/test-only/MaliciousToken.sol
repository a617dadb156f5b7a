// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Reenterer} from "./Reenterer.sol";

/// @dev Test only: a stablecoin that tries to re-enter a contract on every transfer.
contract MaliciousToken is ERC20, Reenterer {
    constructor() ERC20("Malicious Dollar", "EVIL") {}

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    function _update(address from, address to, uint256 value) internal override {
        super._update(from, to, value);
        _reenter();
    }
}
