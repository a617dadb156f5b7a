import { decodeAbiParameters, toEventSelector, type Abi, type AbiEvent, type AbiParameter, type Hex, type Log } from "viem";

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
}

interface Decoder {
  contract: string;
  event: AbiEvent;
  indexed: AbiParameter[];
  data: AbiParameter[];
  addressNames: string[];
  staticData: boolean;
}

/**
 * Decodes logs with selectors computed once per ABI: viem's decodeEventLog hashes every ABI item on each
 * call, which dominated the backfill's time.
 */
export class LogDecoder {
  private readonly byKey = new Map<string, Decoder>();

  constructor(contracts: { name: string; address: string; abi: Abi }[]) {
    for (const contract of contracts) {
      for (const item of contract.abi) {
        if (item.type !== "event" || item.anonymous) continue;
        const selector = toEventSelector(item).toLowerCase();
        this.byKey.set(`${contract.address.toLowerCase()}:${selector}`, {
          contract: contract.name,
          event: item,
          indexed: item.inputs.filter((input) => input.indexed),
          data: item.inputs.filter((input) => !input.indexed),
          addressNames: item.inputs.filter((input) => input.type === "address").map((input) => input.name!),
          staticData: item.inputs.filter((input) => !input.indexed).every(isWord),
        });
      }
    }
  }

  /** Null for logs of events no handler knows (e.g. a contract's own bookkeeping events). */
  decode(log: Log): ChainEvent | null {
    const topic0 = log.topics[0];
    if (!topic0) return null;
    const decoder = this.byKey.get(`${log.address.toLowerCase()}:${topic0.toLowerCase()}`);
    if (!decoder) return null;
    const args: Record<string, unknown> = {};
    decoder.indexed.forEach((input, i) => {
      const topic = log.topics[i + 1] as Hex;
      args[input.name!] = isHashedWhenIndexed(input) ? topic : decodeTopic(input, topic);
    });
    if (decoder.staticData) {
      // Every data field is one 32-byte word: slice them directly, as decodeAbiParameters would.
      decoder.data.forEach((input, i) => (args[input.name!] = decodeWord(input, log.data.slice(2 + i * 64, 2 + (i + 1) * 64))));
    } else if (decoder.data.length > 0) {
      const values = decodeAbiParameters(decoder.data, log.data);
      decoder.data.forEach((input, i) => (args[input.name!] = values[i]));
    }
    // Lowercase like users.wallet_address, so mirror rows join with accounts directly.
    for (const name of decoder.addressNames) args[name] = (args[name] as string).toLowerCase();
    return {
      contract: decoder.contract,
      name: decoder.event.name,
      args,
      address: log.address.toLowerCase(),
      blockNumber: Number(log.blockNumber),
      blockHash: log.blockHash!,
      blockTime: blockTime(log),
      txHash: log.transactionHash!,
      logIndex: log.logIndex!,
    };
  }
}

function isHashedWhenIndexed(input: AbiParameter): boolean {
  return input.type === "string" || input.type === "bytes" || input.type.endsWith("]") || input.type === "tuple";
}

function decodeTopic(input: AbiParameter, topic: Hex): unknown {
  return isWord(input) ? decodeWord(input, topic.slice(2)) : decodeAbiParameters([input], topic)[0];
}

/** Types whose encoding is one word this file decodes itself: addresses and unsigned integers. */
function isWord(input: AbiParameter): boolean {
  return input.type === "address" || /^uint\d*$/.test(input.type);
}

function decodeWord(input: AbiParameter, hex: string): unknown {
  return input.type === "address" ? `0x${hex.slice(24)}` : BigInt(`0x${hex}`);
}

/** Nodes that follow the newer log format (anvil does) give the block's time with each log. */
function blockTime(log: Log): Date | null {
  const seconds = (log as { blockTimestamp?: bigint | null }).blockTimestamp;
  return seconds ? new Date(Number(seconds) * 1000) : null;
}
