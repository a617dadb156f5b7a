import { decodeAbiParameters, toEventSelector, type Abi, type AbiEvent, type AbiParameter, type Hex, type Log as ViemLog, type RpcLog } from "viem";

/** A log as the node answers it (hex quantities), or as viem formats it (bigint and number). */
type Log = RpcLog | ViemLog;

/** A decoded log with what every handler needs to key its rows: (chain, tx hash, log index). */
export interface ChainEvent {
  contract: string;
  name: string;
  args: Record<string, unknown>;
  address: string;
  blockNumber: number;
  blockHash: string;
  blockTime: Date | null;
  txHash: string;
  logIndex: number;
  /**
   * The block whose rollback undoes this event's changes, when later than its own: a collection's past Transfer,
   * fetched when its first CollectionAllowed is indexed (indexer/collections.ts), belongs to that block.
   */
  undoBlock?: number;
}

interface Decoder {
  contract: string;
  name: string;
  /** The contract's address, lowercase: one string for all its events. */
  address: string;
  /** The topics a log of this event has: any other count is another event under the same selector. */
  topics: number;
  /** One reader per argument, in ABI order: the hot loop only calls them. */
  fields: { name: string; read(log: Log): unknown }[];
}

/**
 * Decodes logs with selectors computed once per ABI: viem's decodeEventLog hashes every ABI item on each
 * call, which dominated the backfill's time. Each event's argument readers are built once too, and logs
 * are found by address then selector without building a key string per log.
 */
export class LogDecoder {
  private readonly byAddress = new Map<string, Map<string, Decoder>>();
  private lastBlock: string | null = null;
  private lastTime: Date | null = null;
  private lastNumber = 0;

  constructor(contracts: { name: string; address: string; abi: Abi }[]) {
    for (const contract of contracts) {
      const bySelector = new Map<string, Decoder>();
      this.byAddress.set(contract.address.toLowerCase(), bySelector);
      for (const item of contract.abi) {
        if (item.type !== "event" || item.anonymous) continue;
        bySelector.set(toEventSelector(item).toLowerCase(), {
          contract: contract.name,
          name: item.name,
          address: contract.address.toLowerCase(),
          topics: 1 + item.inputs.filter((input) => input.indexed).length,
          fields: readers(item),
        });
      }
    }
  }

  /** Null for logs of events no handler knows (e.g. a contract's own bookkeeping events). */
  decode(log: Log): ChainEvent | null {
    const topic0 = log.topics[0];
    if (!topic0) return null;
    const bySelector = this.byAddress.get(log.address) ?? this.byAddress.get(log.address.toLowerCase());
    const decoder = bySelector?.get(topic0) ?? bySelector?.get(topic0.toLowerCase());
    // An ERC-20's Transfer has the ERC-721's selector with one topic less: a collection's such log is not a piece's move.
    if (!decoder || log.topics.length !== decoder.topics) return null;
    const args: Record<string, unknown> = {};
    for (const field of decoder.fields) args[field.name] = field.read(log);
    const blockTime = this.blockTime(log);
    return {
      contract: decoder.contract,
      name: decoder.name,
      args,
      address: decoder.address,
      blockNumber: this.lastNumber,
      blockHash: log.blockHash!,
      blockTime,
      txHash: log.transactionHash!,
      logIndex: Number(log.logIndex),
    };
  }

  /**
   * Nodes that follow the newer log format (anvil does) give the block's time with each log; one Date per block.
   * The block's number is read once per block too.
   */
  private blockTime(log: Log): Date | null {
    if (log.blockHash === this.lastBlock) return this.lastTime;
    const seconds = (log as { blockTimestamp?: bigint | string | null }).blockTimestamp;
    this.lastBlock = log.blockHash;
    this.lastNumber = Number(log.blockNumber);
    this.lastTime = seconds ? new Date(Number(seconds) * 1000) : null;
    return this.lastTime;
  }
}

function readers(event: AbiEvent): Decoder["fields"] {
  const fields: Decoder["fields"] = [];
  const data = event.inputs.filter((input) => !input.indexed);
  event.inputs
    .filter((input) => input.indexed)
    .forEach((input, i) => {
      const topic = i + 1;
      let read: (log: Log) => unknown;
      if (isHashedWhenIndexed(input)) read = (log) => log.topics[topic];
      else if (isWord(input)) read = topicReader(input, topic);
      else read = (log) => decodeAbiParameters([input], log.topics[topic] as Hex)[0];
      fields.push({ name: input.name!, read });
    });
  if (data.every(isWord)) {
    // Every data field is one 32-byte word: slice them directly, as decodeAbiParameters would.
    data.forEach((input, i) => {
      const start = 2 + i * 64;
      fields.push({ name: input.name!, read: wordReader(input, (log) => log.data.slice(start, start + 64)) });
    });
  } else if (data.length > 0) {
    let cached: { log: Log; values: readonly unknown[] } | null = null;
    const values = (log: Log) => {
      if (cached?.log !== log) cached = { log, values: decodeAbiParameters(data, log.data) };
      return cached.values;
    };
    data.forEach((input, i) => {
      const read = (log: Log) => values(log)[i];
      // Lowercase like users.wallet_address, so mirror rows join with accounts directly.
      fields.push({ name: input.name!, read: input.type === "address" ? (log) => (read(log) as string).toLowerCase() : read });
    });
  }
  return fields;
}

/** A topic is one "0x"-prefixed word already: a number is parsed as it is, an address is its last 40 digits. */
function topicReader(input: AbiParameter, topic: number): (log: Log) => unknown {
  if (input.type === "address") return (log) => `0x${(log.topics[topic] as string).slice(26)}`.toLowerCase();
  if (isSmallUint(input)) return (log) => Number(log.topics[topic] as string);
  return (log) => BigInt(log.topics[topic] as string);
}

/** Addresses come out lowercase (like users.wallet_address, so mirror rows join with accounts directly). */
function wordReader(input: AbiParameter, hexOf: (log: Log) => string): (log: Log) => unknown {
  if (input.type === "address") return (log) => `0x${hexOf(log).slice(24).toLowerCase()}`;
  if (isSmallUint(input)) return (log) => Number(`0x${hexOf(log)}`);
  return (log) => BigInt(`0x${hexOf(log)}`);
}

/** Integers of 48 bits or fewer come out as numbers, as viem decodes them and as the handlers' ABI types say. */
function isSmallUint(input: AbiParameter): boolean {
  const bits = /^uint(\d+)$/.exec(input.type)?.[1];
  return bits !== undefined && Number(bits) <= 48;
}

function isHashedWhenIndexed(input: AbiParameter): boolean {
  return input.type === "string" || input.type === "bytes" || input.type.endsWith("]") || input.type === "tuple";
}

/** Types whose encoding is one word this file decodes itself: addresses and unsigned integers. */
function isWord(input: AbiParameter): boolean {
  return input.type === "address" || /^uint\d*$/.test(input.type);
}
