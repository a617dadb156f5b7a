import type { Address, PublicClient } from "viem";
import { readFixed, type FixedParams } from "./servicingParams";

/** The late-fee terms a figure needs: immutables of the deployed LoanNote, read once per contract (servicingParams.ts). */
export type LateFeeParams = FixedParams;

/**
 * The late-fee terms for read paths that must answer while the node is down (lists, pages): none until the node has
 * answered once in this process, after which they are cached for good. Decisions that spend money read them strictly.
 */
export const NO_LATE_FEES: LateFeeParams = { lateFeeGracePeriod: 0n, lateFeeBps: 0, defaultAfterDays: 0 };

export function lateFeeParamsOrNone(publicClient: PublicClient, loanNote: Address | string | null | undefined): Promise<LateFeeParams> {
  if (!loanNote) return Promise.resolve(NO_LATE_FEES);
  return readFixed(publicClient, loanNote as Address).catch(() => NO_LATE_FEES);
}

/** The same for a service that knows the chain only by its gateway (the deployment record names the contract). */
export function deploymentFeeParams(chain: { publicClient: PublicClient; deployment(): Promise<{ contracts: { loanNote: string } }> }): Promise<LateFeeParams> {
  return chain.deployment().then(
    (deployment) => lateFeeParamsOrNone(chain.publicClient, deployment.contracts.loanNote),
    () => NO_LATE_FEES,
  );
}
