import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { connectDatabase, type DatabaseHandle } from "#db/connect";
import { deploymentSchema, type Deployment } from "#domain/deployment";
import type { IndexerConfig } from "#domain/indexerConfig";
import type { Logger } from "./options";

export function readDeployment(settings: IndexerConfig): Deployment {
  const path = resolve(settings.dataDir, "deployments", `${settings.chainId}.json`);
  if (!existsSync(path)) throw new Error(`No deployment record at ${path}: deploy the contracts first (npm start does).`);
  return deploymentSchema.parse(JSON.parse(readFileSync(path, "utf8")));
}

/** PGlite allows one process: with it, the indexer runs inside the API (npm start), not on its own. */
export async function openDatabase(settings: IndexerConfig): Promise<DatabaseHandle> {
  try {
    return await connectDatabase({ databaseUrl: settings.databaseUrl, dataDir: settings.dataDir });
  } catch (error) {
    if (!settings.databaseUrl) {
      throw new Error(`Could not open the embedded database in ${settings.dataDir}/pglite (is the API running? stop it first): ${String(error)}`, { cause: error });
    }
    throw error;
  }
}

export const consoleLogger: Logger = {
  info: (message) => console.log(message),
  warn: (message) => console.warn(message),
  error: (message) => console.error(message),
};
