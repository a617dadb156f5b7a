// The demo accounts' local wallets (#3 borrower, #4 investor, #5 admin) hold ETH from anvil's genesis;
// they also need test dollars to repay and to buy. Topped up on every local start, so a chain reset
// (which redeploys the test dollar) never leaves them empty.
import { createPublicClient, createWalletClient, http, type Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { testDollarAbi } from "../domain/abis";
import { DEV_ACCOUNTS } from "../domain/devAccounts";
import type { Deployment } from "../domain/deployment";

const FLOOR = 10_000n * 10n ** 6n; // top up below $10,000
const TARGET = 100_000n * 10n ** 6n; // to $100,000

export async function fundDemoWallets(rpcUrl: string, deployment: Deployment): Promise<void> {
  const transport = http(rpcUrl);
  const publicClient = createPublicClient({ chain: foundry, transport });
  const minter = createWalletClient({ chain: foundry, transport, account: privateKeyToAccount(DEV_ACCOUNTS.deployer) });
  const stablecoin = deployment.contracts.stablecoin as Address;
  for (const key of [DEV_ACCOUNTS.demoBorrower, DEV_ACCOUNTS.demoInvestor, DEV_ACCOUNTS.demoAdmin]) {
    const holder = privateKeyToAccount(key).address;
    const balance = await publicClient.readContract({ address: stablecoin, abi: testDollarAbi, functionName: "balanceOf", args: [holder] });
    if (balance >= FLOOR) continue;
    const hash = await minter.writeContract({ address: stablecoin, abi: testDollarAbi, functionName: "mint", args: [holder, TARGET - balance] });
    await publicClient.waitForTransactionReceipt({ hash });
  }
}
