// The demo accounts' local wallets (#3 borrower, #4 investor, #5 admin) hold ETH from anvil's genesis;
// they also need test dollars to repay and to buy. Topped up on every local start, so a chain reset
// (which redeploys the test dollar) never leaves them empty. The dev faucet's own account (#9) is topped up
// the same way, so a deployment made before it paid from its own account still has a working faucet.
import { createPublicClient, createTestClient, createWalletClient, http, parseEther, type Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { testDollarAbi } from "#domain/abis";
import { DEV_ACCOUNTS } from "#domain/devAccounts";
import type { Deployment } from "#domain/deployment";
import { DEFAULTS } from "#contracts/params";

const FLOOR = 10_000n * 10n ** 6n; // top up below $10,000
const TARGET = 100_000n * 10n ** 6n; // to $100,000

export async function fundDemoWallets(rpcUrl: string, deployment: Deployment): Promise<void> {
  const transport = http(rpcUrl);
  const publicClient = createPublicClient({ chain: foundry, transport });
  const minter = createWalletClient({ chain: foundry, transport, account: privateKeyToAccount(DEV_ACCOUNTS.deployer) });
  const stablecoin = deployment.contracts.stablecoin as Address;
  const wallets: [key: `0x${string}`, floor: bigint, target: bigint][] = [
    [DEV_ACCOUNTS.demoBorrower, FLOOR, TARGET],
    [DEV_ACCOUNTS.demoInvestor, FLOOR, TARGET],
    [DEV_ACCOUNTS.demoAdmin, FLOOR, TARGET],
    [DEV_ACCOUNTS.faucet, DEFAULTS.faucetFunding / 10n, DEFAULTS.faucetFunding],
  ];
  for (const [key, floor, target] of wallets) {
    const holder = privateKeyToAccount(key).address;
    const balance = await publicClient.readContract({ address: stablecoin, abi: testDollarAbi, functionName: "balanceOf", args: [holder] });
    if (balance >= floor) continue;
    const hash = await minter.writeContract({ address: stablecoin, abi: testDollarAbi, functionName: "mint", args: [holder, target - balance] });
    await publicClient.waitForTransactionReceipt({ hash });
  }
  // The faucet's gas money: back to anvil's genesis 10,000 ETH once below 100 (the local chain is always anvil).
  const faucet = privateKeyToAccount(DEV_ACCOUNTS.faucet).address;
  if ((await publicClient.getBalance({ address: faucet })) < parseEther("100")) {
    await createTestClient({ chain: foundry, mode: "anvil", transport }).setBalance({ address: faucet, value: parseEther("10000") });
  }
}
