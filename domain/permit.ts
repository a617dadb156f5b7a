import { parseSignature, type Address, type Hex } from "viem";

/** ERC-2612 `Permit`: what a wallet signs so that one transaction can both pull and spend its stablecoin. */
export const PERMIT_TYPES = {
  Permit: [
    { name: "owner", type: "address" },
    { name: "spender", type: "address" },
    { name: "value", type: "uint256" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
} as const;

/** The token's EIP-5267 `eip712Domain()` answer: fields, name, version, chainId, verifyingContract, salt, extensions. */
export type Eip712DomainAnswer = readonly [Hex, string, string, bigint, Address, Hex, readonly bigint[]];

export interface PermitRequest {
  domain: Eip712DomainAnswer;
  owner: Address;
  spender: Address;
  value: bigint;
  nonce: bigint;
  deadline: bigint;
}

/** The typed data to sign, with integers as decimal strings so it crosses the wire as JSON (eth_signTypedData_v4). */
export function permitTypedData({ domain, owner, spender, value, nonce, deadline }: PermitRequest) {
  return {
    domain: { name: domain[1], version: domain[2], chainId: Number(domain[3]), verifyingContract: domain[4] },
    types: PERMIT_TYPES,
    primaryType: "Permit" as const,
    message: { owner, spender, value: value.toString(), nonce: nonce.toString(), deadline: deadline.toString() },
  };
}

/** A 65-byte signature as the (v, r, s) the `…WithPermit` functions take. */
export function permitSignatureParts(signature: Hex): { v: number; r: Hex; s: Hex } {
  const { v, r, s, yParity } = parseSignature(signature);
  return { v: Number(v ?? BigInt(yParity + 27)), r, s };
}
