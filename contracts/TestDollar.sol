// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";
import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";

/**
 * @title TestDollar (tUSD)
 * @notice The local chain's stablecoin: 6 decimals like USDC, ERC-2612 permits, a minter role and a
 *         rate-limited faucet. On a public network the stablecoin is configuration, never this contract.
 */
contract TestDollar is ERC20, ERC20Permit, AccessControl {
    bytes32 public constant MINTER_ROLE = keccak256("MINTER_ROLE");

    /// @notice Amount one faucet call mints.
    uint128 public faucetAmount;
    /// @notice Seconds an address waits between two faucet calls.
    uint64 public faucetCooldown;
    mapping(address account => uint256) public lastFaucetAt;

    /// @notice The faucet was called again before its cooldown ended.
    error FaucetCooldown(address account, uint256 availableAt);
    /// @notice The faucet is switched off (amount zero).
    error FaucetDisabled();

    event FaucetConfigured(uint256 amount, uint256 cooldown);
    event FaucetUsed(address indexed account, uint256 amount);

    /// @param admin Receives the admin and minter roles.
    /// @param amount Faucet amount per call, in micro-dollars.
    /// @param cooldown Seconds between two faucet calls of one address.
    constructor(address admin, uint128 amount, uint64 cooldown) ERC20("Test Dollar", "tUSD") ERC20Permit("Test Dollar") {
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(MINTER_ROLE, admin);
        faucetAmount = amount;
        faucetCooldown = cooldown;
        emit FaucetConfigured(amount, cooldown);
    }

    /// @notice Six decimals, as USDC.
    function decimals() public pure override returns (uint8) {
        return 6;
    }

    /// @notice Mints `amount` to `to`; minter role only.
    function mint(address to, uint256 amount) external onlyRole(MINTER_ROLE) {
        _mint(to, amount);
    }

    /// @notice Mints the faucet amount to the caller, at most once per cooldown.
    function faucet() external {
        uint256 amount = faucetAmount;
        if (amount == 0) revert FaucetDisabled();
        uint256 last = lastFaucetAt[msg.sender];
        if (last != 0 && block.timestamp < last + faucetCooldown) {
            revert FaucetCooldown(msg.sender, last + faucetCooldown);
        }
        lastFaucetAt[msg.sender] = block.timestamp;
        _mint(msg.sender, amount);
        emit FaucetUsed(msg.sender, amount);
    }

    /// @notice Sets the faucet amount (zero switches it off) and cooldown; admin only.
    function setFaucet(uint128 amount, uint64 cooldown) external onlyRole(DEFAULT_ADMIN_ROLE) {
        faucetAmount = amount;
        faucetCooldown = cooldown;
        emit FaucetConfigured(amount, cooldown);
    }
}
