// Test support for "any chain but 31337 is treated as real money": a private anvil that calls itself
// chain 84532, the contracts deployed with fresh operator keys as `npm run deploy` would, and the start run as a
// person runs it. Anvil's well-known accounts only pay the fresh keys' gas, as a testnet faucet would.
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import assert from "node:assert/strict";
import { createPublicClient, createWalletClient, http, parseEther, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { deployAll } from "#contracts/deploy";
import { freePort, startAnvil, type Anvil } from "#devchain/anvil";
import { DEV_ACCOUNTS } from "#domain/devAccounts";

export const PUBLIC_CHAIN_ID = 84532;

export interface PublicLikeChain {
  anvil: Anvil;
  operator: { deployer: Hex; originator: Hex; treasury: Hex };
  inviteCode: string;
  /** A new data directory holding only the deployment record, as `npm run deploy` leaves it. */
  deployedDataDir(): string;
  /** An empty directory, removed with the chain. */
  emptyDir(): string;
  /** The operator's environment for `npm start`: CHAIN_ID, RPC_URL, the fresh keys, the invite code; no database or Redis unless given. */
  operatorEnv(dataDir: string, overrides?: NodeJS.ProcessEnv): Promise<NodeJS.ProcessEnv>;
  stop(): Promise<void>;
}

export async function startPublicLikeChain(): Promise<PublicLikeChain> {
  const anvil = await startAnvil({ chainId: PUBLIC_CHAIN_ID });
  const operator = { deployer: generatePrivateKey(), originator: generatePrivateKey(), treasury: generatePrivateKey() };
  const inviteCode = `first-admin-${randomBytes(6).toString("hex")}`;
  const dirs: string[] = [];
  const emptyDir = () => {
    const dir = mkdtempSync(join(tmpdir(), "lm-public-"));
    dirs.push(dir);
    return dir;
  };
  const deployedDir = emptyDir();
  try {
    await fundFromAnvil(anvil.rpcUrl, Object.values(operator));
    await deployAll({ rpcUrl: anvil.rpcUrl, dataDir: deployedDir, deployerKey: operator.deployer, treasuryKey: operator.treasury, originatorKey: operator.originator });
  } catch (error) {
    await anvil.stop();
    throw error;
  }
  return {
    anvil,
    operator,
    inviteCode,
    emptyDir,
    deployedDataDir() {
      const dir = emptyDir();
      cpSync(join(deployedDir, "deployments"), join(dir, "deployments"), { recursive: true });
      return dir;
    },
    async operatorEnv(dataDir, overrides = {}) {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: String(await freePort()),
        RPC_URL: anvil.rpcUrl,
        CHAIN_ID: String(PUBLIC_CHAIN_ID),
        DEPLOYER_KEY: operator.deployer,
        ORIGINATOR_KEY: operator.originator,
        TREASURY_KEY: operator.treasury,
        ADMIN_INVITE_CODE: inviteCode,
        LOG_LEVEL: "warn",
        ...overrides,
      };
      for (const name of ["DATABASE_URL", "REDIS_URL", "JWT_SECRET", "APP_ORIGIN"]) if (!(name in overrides)) delete env[name];
      return env;
    },
    async stop() {
      await anvil.stop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function fundFromAnvil(rpcUrl: string, keys: Hex[]): Promise<void> {
  const chain = { id: PUBLIC_CHAIN_ID, name: "public-like", nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } };
  const client = createPublicClient({ chain, transport: http(rpcUrl) });
  const funder = createWalletClient({ chain, transport: http(rpcUrl), account: privateKeyToAccount(DEV_ACCOUNTS.deployer) });
  for (const key of keys) {
    const hash = await funder.sendTransaction({ to: privateKeyToAccount(key).address, value: parseEther("100") });
    await client.waitForTransactionReceipt({ hash });
  }
}

/** A refusal names the setting on exactly one line ("  - SETTING …"), says why, and shows no stack trace. */
export function assertOneProblemLine(output: string, setting: string, why: RegExp): void {
  const lines = output.split("\n").filter((line) => line.includes(setting));
  assert.equal(lines.length, 1, `one line names ${setting}:\n${output}`);
  assert.match(lines[0], new RegExp(`^\\s+- ${setting} `));
  assert.match(lines[0], why);
  assert.doesNotMatch(output, /^\s+at /m, "no stack trace");
}

export interface StartedPlatform {
  readonly output: string;
  stop(): Promise<void>;
}

/** `npm start` as a person runs it, until its banner. */
export async function startPlatform(env: NodeJS.ProcessEnv): Promise<StartedPlatform> {
  const child = spawn(process.execPath, ["scripts/bootstrap.mjs", "start"], { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  while (!output.includes("Press Ctrl-C to stop")) {
    if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    get output() {
      return output;
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGINT");
      await exited;
    },
  };
}

const CAME_UP = /Press Ctrl-C to stop|LoanMint API listening/;

/** Runs a start that should refuse; one that comes up instead is stopped and reported as such (code null). */
export async function runToEnd(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const cameUp = (async () => {
    while (!CAME_UP.test(output)) {
      if (child.exitCode !== null) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    child.kill("SIGINT");
  })();
  const code = await exited;
  await cameUp;
  return { code: CAME_UP.test(output) ? null : code, output };
}

export const NPM_START = ["scripts/bootstrap.mjs", "start"];
export const API_ALONE = ["--import", "tsx", "api/src/server.ts"];
