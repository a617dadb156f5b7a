import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { connectDatabase, type DatabaseHandle } from "../db/connect";
import { deploymentSchema, type Deployment } from "../domain/deployment";
import type { Logger } from "./sync";

/** What the indexer's command-line entry points read from the environment (the API's variables, same defaults). */
export interface CliSettings {
  databaseUrl: string | undefined;
  dataDir: string;
  rpcUrl: string;
  chainId: number;
  confirmations: number;
  pollIntervalMs: number;
}

export function cliSettings(env: NodeJS.ProcessEnv = process.env): CliSettings {
  const number = (name: string, fallback: number) => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, got "${raw}"`);
    return value;
  };
  return {
    databaseUrl: env.DATABASE_URL?.trim() || undefined,
    dataDir: resolve(env.DATA_DIR?.trim() || "./data"),
    rpcUrl: env.RPC_URL?.trim() || "http://127.0.0.1:8545",
    chainId: number("CHAIN_ID", 31337),
    confirmations: number("CONFIRMATIONS", 0),
    pollIntervalMs: number("INDEXER_POLL_MS", 1_000),
  };
}

export function readDeployment(settings: CliSettings): Deployment {
  const path = resolve(settings.dataDir, "deployments", `${settings.chainId}.json`);
  if (!existsSync(path)) throw new Error(`No deployment record at ${path}: deploy the contracts first (npm start does).`);
  return deploymentSchema.parse(JSON.parse(readFileSync(path, "utf8")));
}

/** PGlite allows one process: with it, the indexer runs inside the API (npm start), not on its own. */
export async function openDatabase(settings: CliSettings): Promise<DatabaseHandle> {
  try {
    return await connectDatabase({ databaseUrl: settings.databaseUrl, dataDir: settings.dataDir });
  } catch (error) {
    if (!settings.databaseUrl) {
      throw new Error(`Could not open the embedded database in ${settings.dataDir}/pglite (is the API running? stop it first): ${String(error)}`);
    }
    throw error;
  }
}

export const consoleLogger: Logger = {
  info: (message) => console.log(message),
  warn: (message) => console.warn(message),
  error: (message) => console.error(message),
};
