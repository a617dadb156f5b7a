// The chain and contracts steps of `npm start`, shared with `npm run cluster`.
import { join } from "node:path";
import { createPublicClient, http } from "viem";
import { ConfigError } from "#api/config/env";
import { startAnvil, rpcAnswers, type Anvil } from "#devchain/anvil";
import { LOCAL_CHAIN_ID, type Deployment } from "#domain/deployment";

/**
 * On the local chain, a private anvil whose state survives restarts in `dataDir`, unless one already answers
 * (then null: someone else owns it). A public chain must already answer.
 */
export async function startChainIfNeeded(options: { rpcUrl: string; chainId: number; dataDir: string }): Promise<Anvil | null> {
  const { rpcUrl, chainId, dataDir } = options;
  if (await rpcAnswers(rpcUrl)) {
    await refuseOtherChain(rpcUrl, chainId);
    return null;
  }
  const url = new URL(rpcUrl);
  if (chainId !== LOCAL_CHAIN_ID || !["127.0.0.1", "localhost"].includes(url.hostname)) {
    throw new Error(`No chain answers at RPC_URL=${rpcUrl}. Start it, or unset RPC_URL for the local chain.`);
  }
  return startAnvil({ port: Number(url.port || 8545), stateFile: join(dataDir, "chain.json"), stateInterval: 3 });
}

/**
 * CHAIN_ID decides what is seeded and trusted (only 31337 gets demo accounts and dev keys), so it must be the
 * chain that answers: a forgotten CHAIN_ID in front of a public RPC would otherwise seed the demo there.
 */
async function refuseOtherChain(rpcUrl: string, chainId: number): Promise<void> {
  const answered = await createPublicClient({ transport: http(rpcUrl) }).getChainId();
  if (answered !== chainId) {
    throw new ConfigError([`CHAIN_ID must be the id of the chain at RPC_URL, which answers ${answered} (unset CHAIN_ID means ${LOCAL_CHAIN_ID}, the local chain)`]);
  }
}

/** Compiles if needed and deploys once per chain (an existing record that still matches the chain is kept). */
export async function deployContracts(rpcUrl: string, dataDir: string): Promise<Deployment> {
  const { ensureCompiled, deployAll } = await import("#contracts/deploy");
  await ensureCompiled();
  return deployAll({ rpcUrl, dataDir });
}
