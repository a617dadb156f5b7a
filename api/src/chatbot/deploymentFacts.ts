import type { Address, PublicClient } from "viem";
import { readGracePeriod } from "../chain/gracePeriod";
import { readDeployment } from "../config/deployment";

/**
 * What the answers say of the deployment: the treasury's address (from the deployment record) and LoanNote's grace
 * period (from the chain). Each is null when there is no deployment to ask, and the answers then leave it out.
 */
export function deploymentFacts(dataDir: string | undefined, chainId: number, publicClient: PublicClient | undefined) {
  const deployment = async () => (dataDir ? readDeployment(dataDir, chainId) : null);
  return {
    treasury: async () => (await deployment())?.treasury ?? null,
    gracePeriod: async () => {
      const found = await deployment();
      return found && publicClient ? readGracePeriod(publicClient, found.contracts.loanNote as Address) : null;
    },
  };
}
