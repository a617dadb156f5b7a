// `npm run indexer`: the indexer on its own, against DATABASE_URL (with PGlite it runs inside the API).
// A second copy waits on the writer lock and takes over when the first stops.
import { cliSettings, consoleLogger, openDatabase, readDeployment } from "../indexer/cli";
import { startIndexer } from "../indexer/sync";

const settings = cliSettings();
const deployment = readDeployment(settings);
const database = await openDatabase(settings);
const indexer = startIndexer({
  db: database.db,
  rpcUrl: settings.rpcUrl,
  deployment,
  confirmations: settings.confirmations,
  pollIntervalMs: settings.pollIntervalMs,
  logger: consoleLogger,
});
console.log(`indexer: following chain ${deployment.chainId} at ${settings.rpcUrl} (${settings.confirmations} confirmations)`);

let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  await indexer.stop().catch(() => {});
  await database.close();
  process.exit(0);
}
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
