import { resolve } from "node:path";
import type { Hex } from "viem";
import { deployAll } from "#contracts/deploy";

// CLI: deploys once per chain (or prints the existing record). Env: RPC_URL, DATA_DIR, DEPLOYER_KEY,
// TREASURY_KEY, ORIGINATOR_KEY, STABLECOIN_ADDRESS (public networks); dev keys are the default on 31337.
const env = process.env;
const deployment = await deployAll({
  rpcUrl: env.RPC_URL ?? "http://127.0.0.1:8545",
  dataDir: resolve(env.DATA_DIR ?? "./data"),
  deployerKey: env.DEPLOYER_KEY as Hex | undefined,
  treasuryKey: env.TREASURY_KEY as Hex | undefined,
  originatorKey: env.ORIGINATOR_KEY as Hex | undefined,
  stablecoin: env.STABLECOIN_ADDRESS as `0x${string}` | undefined,
});
console.log(JSON.stringify(deployment, null, 2));
