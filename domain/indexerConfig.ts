/**
 * What the indexer needs to run, whoever reads it from the environment (`loadIndexerConfig` beside the API's
 * settings, as both processes share those variables): it lives here so the indexer never imports the API.
 */
export interface IndexerConfig {
  databaseUrl: string | undefined;
  dataDir: string;
  rpcUrl: string;
  chainId: number;
  confirmations: number;
  pollIntervalMs: number;
  /** Where new heads are pushed from; undefined lets the indexer find a local node's own. */
  headsUrl: string | undefined;
}
