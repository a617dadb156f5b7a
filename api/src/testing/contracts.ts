import { createRequire } from "node:module";
import type { Abi, Hex } from "viem";

const require = createRequire(import.meta.url);

/**
 * A tiny contract for API tests, compiled with the project's solc: a contract wallet that accepts
 * its owner's signatures through EIP-1271.
 */
const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract OwnerWallet {
  address public owner;
  constructor(address initialOwner) { owner = initialOwner; }
  function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
    if (signature.length != 65) return 0xffffffff;
    bytes32 r = bytes32(signature[0:32]);
    bytes32 s = bytes32(signature[32:64]);
    uint8 v = uint8(signature[64]);
    return ecrecover(hash, v, r, s) == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
  }
}`;

export interface Compiled {
  abi: Abi;
  bytecode: Hex;
}

let compiled: Record<"OwnerWallet", Compiled> | undefined;

export function testContracts() {
  if (compiled) return compiled;
  const solc = require("solc");
  const input = {
    language: "Solidity",
    sources: { "Test.sol": { content: SOURCE } },
    settings: { optimizer: { enabled: true, runs: 200 }, outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === "error");
  if (errors.length) throw new Error(errors.map((e: { formattedMessage: string }) => e.formattedMessage).join("\n"));
  const pick = (name: string): Compiled => ({
    abi: output.contracts["Test.sol"][name].abi,
    bytecode: `0x${output.contracts["Test.sol"][name].evm.bytecode.object}`,
  });
  compiled = { OwnerWallet: pick("OwnerWallet") };
  return compiled;
}
