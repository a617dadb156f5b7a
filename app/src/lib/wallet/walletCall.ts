/** A transaction the wallet sends, as the API answers it. */
export interface WalletCall {
  to: `0x${string}`;
  data: `0x${string}`;
  value: string;
  chainId: number;
  step?: string;
}

/** An ERC-2612 permit the API asks the wallet to sign (eth_signTypedData_v4). */
export interface PermitRequest {
  domain: { name: string; version: string; chainId: number; verifyingContract: `0x${string}` };
  types: { Permit: { name: string; type: string }[] };
  primaryType: "Permit";
  message: { owner: `0x${string}`; spender: `0x${string}`; value: string; nonce: string; deadline: string };
}
