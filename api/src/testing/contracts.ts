import { createRequire } from "node:module";
import type { Abi, Hex } from "viem";

const require = createRequire(import.meta.url);

/**
 * Tiny contracts for API tests, compiled with the project's solc: a contract wallet that accepts its owner's
 * signatures through EIP-1271 but cannot take an ERC-721 by safeTransferFrom (no onERC721Received), the same wallet
 * able to take one, and a bare ERC-721 whose name and tokenURIs the test writes (a hostile collection's
 * metadata: HTML, script addresses, oversized answers, reverts).
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
}
contract ReceivingWallet is OwnerWallet {
  constructor(address initialOwner) OwnerWallet(initialOwner) {}
  function onERC721Received(address, address, uint256, bytes calldata) external pure returns (bytes4) { return 0x150b7a02; }
}
contract MetadataCollection {
  event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
  event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId);
  event ApprovalForAll(address indexed owner, address indexed operator, bool approved);
  string public name;
  mapping(uint256 => address) private owners;
  mapping(address => uint256) public balanceOf;
  mapping(uint256 => address) public getApproved;
  mapping(address => mapping(address => bool)) public isApprovedForAll;
  mapping(uint256 => string) private uris;
  /// Pieces whose tokenURI reverts, or answers this many zero bytes.
  mapping(uint256 => bool) public reverts;
  mapping(uint256 => uint256) public hugeBytes;
  /// Transfers out of this address revert (a collection refusing to return an escrowed piece).
  address public blockedFrom;
  constructor(string memory name_) { name = name_; }
  function mint(address to, uint256 id, string calldata uri) external { owners[id] = to; balanceOf[to] += 1; uris[id] = uri; emit Transfer(address(0), to, id); }
  function setTrap(uint256 id, bool reverting, uint256 huge) external { reverts[id] = reverting; hugeBytes[id] = huge; }
  function setBlockedFrom(address from) external { blockedFrom = from; }
  function ownerOf(uint256 id) public view returns (address) { require(owners[id] != address(0), "none"); return owners[id]; }
  function tokenURI(uint256 id) external view returns (string memory) {
    require(!reverts[id], "no metadata");
    if (hugeBytes[id] > 0) return string(new bytes(hugeBytes[id]));
    return uris[id];
  }
  function supportsInterface(bytes4 id) external pure returns (bool) { return id == 0x80ac58cd || id == 0x5b5e139f || id == 0x01ffc9a7; }
  function approve(address to, uint256 id) external { address o = ownerOf(id); require(msg.sender == o || isApprovedForAll[o][msg.sender], "auth"); getApproved[id] = to; emit Approval(o, to, id); }
  function setApprovalForAll(address op, bool ok) external { isApprovedForAll[msg.sender][op] = ok; emit ApprovalForAll(msg.sender, op, ok); }
  function transferFrom(address from, address to, uint256 id) public {
    address o = ownerOf(id);
    require(o == from && to != address(0), "from");
    require(from != blockedFrom, "blocked");
    require(msg.sender == o || getApproved[id] == msg.sender || isApprovedForAll[o][msg.sender], "auth");
    getApproved[id] = address(0); balanceOf[from] -= 1; balanceOf[to] += 1; owners[id] = to;
    emit Transfer(from, to, id);
  }
  function safeTransferFrom(address from, address to, uint256 id) external { transferFrom(from, to, id); }
  function safeTransferFrom(address from, address to, uint256 id, bytes calldata) external { transferFrom(from, to, id); }
}`;

export interface Compiled {
  abi: Abi;
  bytecode: Hex;
}

let compiled: Record<"OwnerWallet" | "ReceivingWallet" | "MetadataCollection", Compiled> | undefined;

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
  compiled = { OwnerWallet: pick("OwnerWallet"), ReceivingWallet: pick("ReceivingWallet"), MetadataCollection: pick("MetadataCollection") };
  return compiled;
}
