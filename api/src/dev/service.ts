import { createWalletClient, http, parseEther, type Address, type Hash, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { DEV_ACCOUNTS } from "#domain/devAccounts";
import { testDollarAbi } from "#domain/abis";
import { parseUsd } from "#domain/money";
import type { AppConfig } from "../config/env";
import { chainOf } from "../chain/client";
import { readDeployment } from "../config/deployment";
import { AppError } from "../http/errors";
import { FAUCET_ANSWERS } from "./texts";

export const FAUCET_ETH = "1";
export const FAUCET_USD = "10000";

export interface FaucetResult {
  address: Address;
  eth: string;
  usd: string | null;
  ethTxHash: Hash;
  stablecoinTxHash: Hash | null;
}

/**
 * Local chain only: gas money and test dollars paid from the faucet's own account (dev account #9, funded by the
 * deploy), never from the deployer, whose key holds every contract's admin role. The faucet holds no role at all.
 */
export function createFaucet(deps: { config: AppConfig; publicClient: PublicClient }) {
  const account = privateKeyToAccount(DEV_ACCOUNTS.faucet);
  const wallet = createWalletClient({ account, chain: chainOf(deps.config), transport: http(deps.config.rpcUrl) });
  const { publicClient } = deps;
  // One sender, one nonce sequence: requests take turns instead of racing for the same nonce.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => {});
    return next;
  };

  /** A dry account is the operator's to refill: 503 before anything is sent, never a half-paid drip or a 500. */
  async function checkStock(stablecoin: Address | null, eth: bigint, usd: bigint): Promise<void> {
    const [gas, dollars] = await Promise.all([
      publicClient.getBalance({ address: account.address }),
      stablecoin ? publicClient.readContract({ address: stablecoin, abi: testDollarAbi, functionName: "balanceOf", args: [account.address] }) : usd,
    ]);
    // The margin pays for the two transactions' gas.
    if (gas < eth + parseEther("0.01") || dollars < usd) throw new AppError(503, FAUCET_ANSWERS.empty);
  }

  return {
    drip(to: Address): Promise<FaucetResult> {
      return serial(async () => {
        const deployment = await readDeployment(deps.config.dataDir, deps.config.chainId);
        const stablecoin = (deployment?.contracts.stablecoin as Address | undefined) ?? null;
        const [eth, usd] = [parseEther(FAUCET_ETH), parseUsd(FAUCET_USD)];
        await checkStock(stablecoin, eth, usd);
        const ethTxHash = await wallet.sendTransaction({ to, value: eth });
        await publicClient.waitForTransactionReceipt({ hash: ethTxHash });
        let stablecoinTxHash: Hash | null = null;
        if (stablecoin) {
          stablecoinTxHash = await wallet.writeContract({ address: stablecoin, abi: testDollarAbi, functionName: "transfer", args: [to, usd] });
          const receipt = await publicClient.waitForTransactionReceipt({ hash: stablecoinTxHash });
          if (receipt.status !== "success") throw new Error(`test dollar transfer reverted in ${stablecoinTxHash}`);
        }
        return { address: to, eth: FAUCET_ETH, usd: stablecoin ? FAUCET_USD : null, ethTxHash, stablecoinTxHash };
      });
    },
  };
}
export type Faucet = ReturnType<typeof createFaucet>;
