import type { Address, PublicClient } from "viem";
import type { Deployment } from "#domain/deployment";
import { readFixed, type FixedParams } from "./servicingParams";

/** The late-fee terms a figure needs: immutables of the deployed LoanNote, read once per contract (servicingParams.ts). */
export type LateFeeParams = FixedParams;

/** No deployment, no note: nothing can owe a fee. */
export const NO_LATE_FEES: LateFeeParams = { lateFeeGracePeriod: 0n, lateFeeBps: 0, defaultAfterDays: 0 };

/**
 * The late-fee terms for read paths that must answer while the node is down (lists, pages): the chain's (cached), or
 * while the node has not answered yet the deployment record's, which are the same immutables as deployed.
 */
export function lateFeeParamsOf(publicClient: PublicClient, deployment: Pick<Deployment, "contracts" | "params"> | null | undefined): Promise<LateFeeParams> {
  if (!deployment) return Promise.resolve(NO_LATE_FEES);
  const recorded = deployment.params.loanNote;
  return readFixed(publicClient, deployment.contracts.loanNote as Address).catch(() => ({
    lateFeeGracePeriod: BigInt(recorded.lateFeeGracePeriod),
    lateFeeBps: recorded.lateFeeBps,
    defaultAfterDays: recorded.defaultAfterDays,
  }));
}

/** The same for a service that knows the chain only by its gateway. */
export function deploymentFeeParams(chain: { publicClient: PublicClient; deployment(): Promise<Deployment> }): Promise<LateFeeParams> {
  return chain.deployment().then(
    (deployment) => lateFeeParamsOf(chain.publicClient, deployment),
    () => NO_LATE_FEES,
  );
}
