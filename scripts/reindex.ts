// `npm run reindex`: drops this chain's mirror and rebuilds it from the indexer's log cache (no request to the node
// when the cache reaches as far as the mirror did), from the chain past it, then exits. It waits while
// another indexer holds the writer lock; with PGlite, stop the API first (one process at a time).
import { consoleLogger, openDatabase, readDeployment } from "#indexer/cli";
import { loadIndexerConfig } from "#api/config/env";
import { reindex } from "#indexer/reindex";

const settings = loadIndexerConfig();
const deployment = readDeployment(settings);
const database = await openDatabase(settings);
try {
  const result = await reindex({ db: database.db, rpcUrl: settings.rpcUrl, deployment, confirmations: settings.confirmations, logger: consoleLogger });
  console.log(`reindex: the mirror of chain ${deployment.chainId} is rebuilt up to block ${result.blockNumber} in ${(result.ms / 1000).toFixed(1)} s`);
} finally {
  await database.close();
}
