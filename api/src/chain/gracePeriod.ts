import type { Address, PublicClient } from "viem";
import { loanNoteAbi } from "#domain/abis";

/** LoanNote's grace period after maturity, in seconds: the admin may change it on-chain, so it is read, never assumed. */
export async function readGracePeriod(publicClient: PublicClient, loanNote: Address): Promise<bigint> {
  return BigInt(await publicClient.readContract({ address: loanNote, abi: loanNoteAbi, functionName: "gracePeriod" }));
}
