// `npm run indexer`: the indexer on its own, against DATABASE_URL (with PGlite it runs inside the API).
// A second copy waits on the writer lock and takes over when the first stops.
import { ConfigError, loadIndexerConfig } from "#api/config/env";
import type { DatabaseHandle } from "#db/connect";
import { consoleLogger, openDatabase, readDeployment } from "#indexer/cli";
import { startIndexer, type Indexer } from "#indexer/sync";

let database: DatabaseHandle | undefined;
let indexer: Indexer | undefined;
let stopping = false;

/** Lets the batch in flight commit (or roll back whole), releases the writer lock, then closes the database. */
async function shutdown(signal: NodeJS.Signals) {
  if (stopping) {
    // A second Ctrl-C means now: the batch's transaction is rolled back by Postgres when the connection drops.
    console.error(`indexer: ${signal} again, exiting without waiting`);
    process.exit(130);
  }
  stopping = true;
  console.log(`indexer: ${signal}, stopping after the batch in flight`);
  let code = 0;
  await indexer?.stop().catch((error: unknown) => {
    console.error("indexer: stop failed", error);
    code = 1;
  });
  await database?.close().catch(() => {});
  process.exit(code);
}
process.on("SIGINT", (signal) => void shutdown(signal));
process.on("SIGTERM", (signal) => void shutdown(signal));

try {
  const settings = loadIndexerConfig();
  const deployment = readDeployment(settings);
  database = await openDatabase(settings);
  indexer = startIndexer({
    db: database.db,
    rpcUrl: settings.rpcUrl,
    deployment,
    confirmations: settings.confirmations,
    pollIntervalMs: settings.pollIntervalMs,
    headsUrl: settings.headsUrl,
    logger: consoleLogger,
  });
  console.log(`indexer: following chain ${deployment.chainId} at ${settings.rpcUrl} (${settings.confirmations} confirmations)`);
} catch (error) {
  // Settings and a missing deployment are the operator's to fix: their message, not a stack trace.
  console.error(error instanceof ConfigError ? error.message : `indexer: ${error instanceof Error ? error.message : String(error)}`);
  await database?.close().catch(() => {});
  process.exit(1);
}
