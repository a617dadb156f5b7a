import type { Address, PublicClient } from "viem";
import { loanNoteAbi } from "#domain/abis";
import type { ServicingParams } from "#domain/lateFees";

type Reader = Pick<PublicClient, "readContract">;

/** The late-fee terms are immutables of the deployment: read once per contract, then every figure is the mirror's. */
export type LateFeeParams = Pick<ServicingParams, "lateFeeGracePeriod" | "lateFeeBps" | "defaultAfterDays">;

const cached = new WeakMap<Reader, Map<string, Promise<LateFeeParams>>>();

/** LoanNote's late-fee grace period, late fee and days past due to default; a failed read is tried again next time. */
export function readLateFeeParams(publicClient: Reader, loanNote: Address): Promise<LateFeeParams> {
  let byAddress = cached.get(publicClient);
  if (!byAddress) cached.set(publicClient, (byAddress = new Map()));
  const key = loanNote.toLowerCase();
  const known = byAddress.get(key);
  if (known) return known;
  const contract = { address: loanNote, abi: loanNoteAbi } as const;
  const read = Promise.all([
    publicClient.readContract({ ...contract, functionName: "lateFeeGracePeriod" }),
    publicClient.readContract({ ...contract, functionName: "lateFeeBps" }),
    publicClient.readContract({ ...contract, functionName: "defaultAfterDays" }),
  ]).then(([grace, bps, days]) => ({ lateFeeGracePeriod: BigInt(grace), lateFeeBps: Number(bps), defaultAfterDays: Number(days) }));
  byAddress.set(key, read);
  read.catch(() => byAddress.delete(key));
  return read;
}

/**
 * The late-fee terms for read paths that must answer while the node is down (lists, pages): none until the node has
 * answered once in this process, after which they are cached for good. Decisions that spend money read them strictly.
 */
export const NO_LATE_FEES: LateFeeParams = { lateFeeGracePeriod: 0n, lateFeeBps: 0, defaultAfterDays: 0 };

export function lateFeeParamsOrNone(publicClient: Reader, loanNote: Address | string | null | undefined): Promise<LateFeeParams> {
  if (!loanNote) return Promise.resolve(NO_LATE_FEES);
  return readLateFeeParams(publicClient, loanNote as Address).catch(() => NO_LATE_FEES);
}

/** The same for a service that knows the chain only by its gateway (the deployment record names the contract). */
export function deploymentFeeParams(chain: { publicClient: Reader; deployment(): Promise<{ contracts: { loanNote: string } }> }): Promise<LateFeeParams> {
  return chain.deployment().then(
    (deployment) => lateFeeParamsOrNone(chain.publicClient, deployment.contracts.loanNote),
    () => NO_LATE_FEES,
  );
}
