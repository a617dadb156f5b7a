import type { Address } from "viem";
import { noteVaultAbi } from "#domain/abis";
import type { Deployment } from "#domain/deployment";

/** What noteHolder reads with: a chain client, or a batch of one block's reads (api/src/orders/blockBatch.ts). */
export interface VaultReader {
  readContract(parameters: { address: Address; abi: typeof noteVaultAbi; functionName: "depositorOf"; args: readonly [bigint] }): Promise<string>;
}

/** Who a note belongs to per the chain, lowercase: its `owner`, or its depositor while the vault holds it. */
export async function noteHolder(reader: VaultReader, d: Deployment, tokenId: bigint, owner: string): Promise<string> {
  const vault = d.contracts.vault as Address;
  if (owner.toLowerCase() !== vault.toLowerCase()) return owner.toLowerCase();
  const depositor = await reader.readContract({ address: vault, abi: noteVaultAbi, functionName: "depositorOf", args: [tokenId] });
  return depositor.toLowerCase();
}
