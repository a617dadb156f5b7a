import type { IndexerOptions } from "./options";
import { ChainSync } from "./sync";

/**
 * Drops one chain's mirror and rebuilds it from the deploy block, under the writer lock (it waits while another
 * indexer writes): from the log cache, asking the node nothing, as far as the cache reaches; past the cache (or
 * without one), from the node up to the current head. Events replayed this way are not pushed again.
 */
export async function reindex(options: Omit<IndexerOptions, "onBatch" | "beforeCommit">): Promise<{ blockNumber: number; ms: number }> {
  const started = performance.now();
  const sync = new ChainSync({ ...options, pollIntervalMs: options.pollIntervalMs ?? 100 });
  await sync.rebuildOnce();
  return { blockNumber: sync.status().blockNumber ?? -1, ms: performance.now() - started };
}
