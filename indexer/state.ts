import { createPublicClient, http, type PublicClient } from "viem";
import { collectionContract, indexedContracts, type IndexedContract } from "./config";
import { COLLECTION } from "./entities";
import { collectionHandlers } from "./handlers/collection";
import type { Context } from "./context";
import { LogDecoder } from "./decode";
import { createLogsClient, type LogsClient } from "./logs";
import { silentLogger, type IndexerOptions, type Logger } from "./options";
import { AdaptiveRange, DEFAULT_RANGE } from "./range";
import { EntityCache } from "./store";

/** The newest block the mirror holds, and the block up to which replayed events are not pushed. */
export interface Cursor {
  blockNumber: number;
  blockHash: string;
  silentUntil: number;
}

const ZERO_HASH = `0x${"0".repeat(64)}`;

/** The chain is not the one deployed to (or was reset): nothing is indexed until it is. */
export class ChainMismatchError extends Error {}

/**
 * What the follower's jobs share (sync.ts follows the head, backfill.ts indexes a range, commit.ts writes a batch,
 * reorg.ts undoes one, mirror.ts starts afresh): the node, the deployment's contracts, the cursor and the cache.
 */
export class SyncState {
  readonly client: PublicClient;
  readonly logs: LogsClient;
  readonly chainId: number;
  /** The deployment's own contracts, followed from its deploy block. */
  readonly fixed: IndexedContract[];
  /** What the logs are asked for and decoded of: the fixed contracts and the followed collections. */
  contracts: IndexedContract[];
  readonly handlersByContract: Map<string, IndexedContract["handlers"]>;
  decoder: LogDecoder;
  /** The collections followed now (lowercase), as chain_collections lists them plus any the batch in hand adds. */
  collections: string[] = [];
  readonly range: AdaptiveRange;
  readonly confirmations: number;
  readonly finalityDepth: number;
  readonly logger: Logger;
  readonly addresses: Context["addresses"];
  readonly cache = new EntityCache();
  cursor: Cursor | null = null;
  stopped = false;

  constructor(readonly options: IndexerOptions) {
    this.client = createPublicClient({ cacheTime: 0, transport: http(options.rpcUrl, { retryCount: 2, timeout: 30_000 }) }) as PublicClient;
    this.logs = createLogsClient(options.rpcUrl);
    this.chainId = options.deployment.chainId;
    this.fixed = indexedContracts(options.deployment);
    this.contracts = this.fixed;
    this.handlersByContract = new Map(this.fixed.map((contract) => [contract.name, contract.handlers]));
    this.handlersByContract.set(COLLECTION, collectionHandlers as IndexedContract["handlers"]);
    this.decoder = new LogDecoder(this.contracts);
    this.range = new AdaptiveRange({ ...DEFAULT_RANGE, ...options.range });
    this.confirmations = options.confirmations ?? 0;
    this.finalityDepth = options.finalityDepth ?? 64;
    this.logger = options.logger ?? silentLogger;
    const { loanNote, marketplace, vault, stablecoin } = options.deployment.contracts;
    this.addresses = {
      loanNote: loanNote.toLowerCase(),
      marketplace: marketplace.toLowerCase(),
      vault: vault.toLowerCase(),
      stablecoin: stablecoin.toLowerCase(),
      treasury: options.deployment.treasury.toLowerCase(),
    };
  }

  /** True for an address whose logs are followed already: a fixed contract (never a collection too) or a collection. */
  follows(address: string): boolean {
    const lower = address.toLowerCase();
    return this.contracts.some((contract) => contract.address === lower);
  }

  /** Follows exactly these collections beside the fixed contracts (the decoder is rebuilt: a handful of ABIs). */
  followCollections(addresses: string[]): void {
    const fixed = new Set(this.fixed.map((contract) => contract.address));
    this.collections = [...new Set(addresses.map((address) => address.toLowerCase()))].filter((address) => !fixed.has(address));
    this.contracts = [...this.fixed, ...this.collections.map(collectionContract)];
    this.decoder = new LogDecoder(this.contracts);
  }

  async blockHash(number: number): Promise<string> {
    if (number < 0) return ZERO_HASH;
    return (await this.client.getBlock({ blockNumber: BigInt(number) })).hash!;
  }
}
