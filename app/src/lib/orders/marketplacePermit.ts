import type { Address, PublicClient } from "viem";
import { testDollarAbi } from "#domain/abis";
import { permitTypedData } from "#domain/permit";
import type { PermitRequest } from "../wallet/walletCall";

/** How long a buyer's permit stays good: long enough to confirm in a wallet, short enough not to linger. */
const PERMIT_SECONDS = 20n * 60n;

/**
 * The ERC-2612 permit letting the marketplace take `price` from `owner`, read from the chain (the token's own
 * EIP-712 domain and the owner's nonce); the deadline counts from the chain's clock, not the browser's. The contract
 * permits exactly its `maxPrice`, and a permit sets the allowance rather than adding to it: after the purchase the
 * marketplace may take nothing more, so the buyer's open offers wait as unfunded until they allow again.
 */
export async function marketplacePermit(client: PublicClient, token: Address, marketplace: Address, owner: Address, price: bigint): Promise<{ permit: PermitRequest; deadline: bigint }> {
  const [domain, nonce, block] = await Promise.all([
    client.readContract({ address: token, abi: testDollarAbi, functionName: "eip712Domain" }),
    client.readContract({ address: token, abi: testDollarAbi, functionName: "nonces", args: [owner] }),
    client.getBlock(),
  ]);
  const deadline = block.timestamp + PERMIT_SECONDS;
  const typed = permitTypedData({ domain, owner, spender: marketplace, value: price, nonce, deadline });
  return { permit: { ...typed, types: { Permit: [...typed.types.Permit] } }, deadline };
}
