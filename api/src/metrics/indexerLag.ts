import { eq } from "drizzle-orm";
import { Gauge, type Registry } from "prom-client";
import type { PublicClient } from "viem";
import type { Db } from "#db/connect";
import { chainCursors } from "#db/schema/chain";

/** A scrape asks the node at most this often; scrapes from several Prometheus replicas share one answer. */
const HEAD_CACHE_MS = 5_000;
const HEAD_TIMEOUT_MS = 1_500;

export interface IndexerLagDeps {
  db: Db;
  publicClient: PublicClient;
  chainId: number;
  confirmations: number;
}

/**
 * The indexer's lag, read from the mirror's cursor row and the chain's head, so it is right whether the
 * indexer runs in this process (npm start) or in another (npm run indexer). NaN when either is unknown.
 */
export function indexerLagMetrics(registry: Registry, deps: IndexerLagDeps): void {
  const head = cachedHead(deps.publicClient);
  // A scrape collects the three gauges at once: they share one reading of the cursor and the head.
  let inFlight: Promise<{ block: number | null; top: number | null }> | null = null;
  const reading = () =>
    (inFlight ??= Promise.all([cursorBlock(deps).catch(() => null), head()])
      .then(([block, top]) => ({ block, top }))
      .finally(() => (inFlight = null)));
  const gauge = (name: string, help: string, value: (read: { block: number | null; top: number | null }) => number | null) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        this.set(value(await reading()) ?? NaN);
      },
    });
  gauge("loanmint_indexer_block", "The last block the indexer's mirror holds (NaN: no mirror, or the database does not answer)", (read) => read.block);
  gauge("loanmint_chain_head_block", "The chain's head block (NaN: the node does not answer)", (read) => read.top);
  gauge("loanmint_indexer_lag_blocks", "Blocks the mirror is behind the chain's head, less the confirmations it waits for on purpose (NaN when unknown)", ({ block, top }) =>
    block === null || top === null ? null : Math.max(0, top - deps.confirmations - block),
  );
}

async function cursorBlock(deps: IndexerLagDeps): Promise<number | null> {
  const [row] = await deps.db.select({ blockNumber: chainCursors.blockNumber }).from(chainCursors).where(eq(chainCursors.chainId, deps.chainId));
  return row ? Number(row.blockNumber) : null;
}

function cachedHead(client: PublicClient): () => Promise<number | null> {
  let last: { at: number; value: Promise<number | null> } | null = null;
  return () => {
    if (last && Date.now() - last.at < HEAD_CACHE_MS) return last.value;
    const value = Promise.race([
      Promise.resolve().then(async () => Number(await client.getBlockNumber())),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), HEAD_TIMEOUT_MS).unref()),
    ]).catch(() => null);
    last = { at: Date.now(), value };
    return value;
  };
}
