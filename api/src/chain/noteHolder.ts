import type { Address, PublicClient } from "viem";
import { noteVaultAbi } from "#domain/abis";
import type { Deployment } from "#domain/deployment";

/** Who a note belongs to per the chain, lowercase: its `owner`, or its depositor while the vault holds it. */
export async function noteHolder(publicClient: PublicClient, d: Deployment, tokenId: bigint, owner: string): Promise<string> {
  const vault = d.contracts.vault as Address;
  if (owner.toLowerCase() !== vault.toLowerCase()) return owner.toLowerCase();
  const depositor = await publicClient.readContract({ address: vault, abi: noteVaultAbi, functionName: "depositorOf", args: [tokenId] });
  return depositor.toLowerCase();
}
