import { createWalletClient, http, parseEther, type Address, type Hash, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { DEV_ACCOUNTS } from "../../../domain/devAccounts";
import { testDollarAbi } from "../../../domain/abis";
import { parseUsd } from "../../../domain/money";
import type { AppConfig } from "../config/env";
import { chainOf } from "../chain/client";
import { readDeployment } from "../config/deployment";

export const FAUCET_ETH = "10";
export const FAUCET_USD = "10000";

export interface FaucetResult {
  address: Address;
  eth: string;
  usd: string | null;
  ethTxHash: Hash;
  stablecoinTxHash: Hash | null;
}

/** Local chain only: gas money from dev account #0 and test dollars minted by the deployer (the stablecoin's minter). */
export function createFaucet(deps: { config: AppConfig; publicClient: PublicClient }) {
  const account = privateKeyToAccount(DEV_ACCOUNTS.deployer);
  const wallet = createWalletClient({ account, chain: chainOf(deps.config), transport: http(deps.config.rpcUrl) });
  // One sender, one nonce sequence: requests take turns instead of racing for the same nonce.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => {});
    return next;
  };

  return {
    drip(to: Address): Promise<FaucetResult> {
      return serial(async () => {
        const ethTxHash = await wallet.sendTransaction({ to, value: parseEther(FAUCET_ETH) });
        await deps.publicClient.waitForTransactionReceipt({ hash: ethTxHash });
        const deployment = await readDeployment(deps.config.dataDir, deps.config.chainId);
        let stablecoinTxHash: Hash | null = null;
        if (deployment) {
          stablecoinTxHash = await wallet.writeContract({
            address: deployment.contracts.stablecoin as Address,
            abi: testDollarAbi,
            functionName: "mint",
            args: [to, parseUsd(FAUCET_USD)],
          });
          const receipt = await deps.publicClient.waitForTransactionReceipt({ hash: stablecoinTxHash });
          if (receipt.status !== "success") throw new Error(`test dollar mint reverted in ${stablecoinTxHash}`);
        }
        return { address: to, eth: FAUCET_ETH, usd: deployment ? FAUCET_USD : null, ethTxHash, stablecoinTxHash };
      });
    },
  };
}
