import type { Address, PublicClient } from "viem";
import { loanNoteAbi } from "#domain/abis";
import type { ServicingParams } from "#domain/lateFees";
import { readGracePeriod } from "./gracePeriod";

export type FixedParams = Omit<ServicingParams, "gracePeriod">;

/** The late-fee and default parameters are immutables of each LoanNote: read once per contract, then kept. */
const fixedByContract = new Map<string, Promise<FixedParams>>();

export function readFixed(publicClient: PublicClient, loanNote: Address): Promise<FixedParams> {
  const key = loanNote.toLowerCase();
  let fixed = fixedByContract.get(key);
  if (!fixed) {
    const read = (functionName: "lateFeeGracePeriod" | "lateFeeBps" | "defaultAfterDays") => publicClient.readContract({ address: loanNote, abi: loanNoteAbi, functionName });
    fixed = Promise.all([read("lateFeeGracePeriod"), read("lateFeeBps"), read("defaultAfterDays")]).then(([lateFeeGracePeriod, lateFeeBps, defaultAfterDays]) => ({
      lateFeeGracePeriod: BigInt(lateFeeGracePeriod),
      lateFeeBps: Number(lateFeeBps),
      defaultAfterDays: Number(defaultAfterDays),
    }));
    // A failed read (the node is down) is asked again next time rather than kept.
    fixed.catch(() => fixedByContract.delete(key));
    fixedByContract.set(key, fixed);
  }
  return fixed;
}

/**
 * LoanNote's servicing parameters: the late-fee and default ones fixed at deployment (cached), and the grace period
 * after maturity, which the admin may change on-chain and is therefore read every time.
 */
export async function readServicingParams(publicClient: PublicClient, loanNote: Address): Promise<ServicingParams> {
  const [fixed, gracePeriod] = await Promise.all([readFixed(publicClient, loanNote), readGracePeriod(publicClient, loanNote)]);
  return { ...fixed, gracePeriod };
}
