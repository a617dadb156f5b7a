import { createPublicClient, decodeEventLog, decodeFunctionData, http as viemHttp, hexToString, isHex, pad, toHex, type Abi, type Address, type Hex, type Log, type PublicClient } from "viem";
import type { PublicConfig } from "#domain/deployment";
import { collateralEscrowAbi, loanNoteAbi, noteMarketplaceAbi, noteVaultAbi, testDollarAbi } from "#domain/abis";

/** Reads go through the API's same-origin JSON-RPC proxy: a browser that reaches only the app still reaches the chain. */
let cached: { url: string; client: PublicClient } | null = null;
export function chainClient(config: PublicConfig): PublicClient {
  const url = new URL(config.rpcUrl, window.location.origin).toString();
  if (cached?.url !== url) cached = { url, client: createPublicClient({ transport: viemHttp(url) }) as PublicClient };
  return cached.client;
}

export interface KnownContract {
  name: string;
  abi: Abi;
  address: Address;
}

/** Our five contracts by lowercase address, so logs and calls can be decoded with the domain's ABIs. */
export function knownContracts(config: PublicConfig): Map<string, KnownContract> {
  const map = new Map<string, KnownContract>();
  const c = config.contracts;
  if (!c) return map;
  const add = (name: string, address: string, abi: Abi) => map.set(address.toLowerCase(), { name, abi, address: address as Address });
  add("LoanNote", c.loanNote, loanNoteAbi);
  add("NoteMarketplace", c.marketplace, noteMarketplaceAbi);
  add("NoteVault", c.vault, noteVaultAbi);
  add("CollateralEscrow", c.collateralEscrow, collateralEscrowAbi);
  add("TestDollar", c.stablecoin, testDollarAbi);
  return map;
}

export function addressLabel(config: PublicConfig | undefined, address: string): string | null {
  if (!config) return null;
  const known = knownContracts(config).get(address.toLowerCase());
  if (known) return known.name;
  if (config.treasury && config.treasury.toLowerCase() === address.toLowerCase()) return "Treasury";
  return null;
}

export type ArgValue =
  string | { kind: "address"; value: string } | { kind: "amount"; value: bigint } | { kind: "time"; value: bigint } | { kind: "bps"; value: bigint } | { kind: "text"; value: string };

export interface DecodedEvent {
  logIndex: number;
  blockNumber: bigint | null;
  txHash: Hex | null;
  contract: string;
  address: string;
  name: string;
  args: { name: string; value: ArgValue }[];
}

const MONEY_ARGS = new Set(["price", "amount", "principal", "totalRepaid", "fee", "value", "expectedPrice", "listingPrice"]);
// Unix seconds and basis points in our contracts' arguments: a person reads a date and a percent.
const TIME_ARGS = new Set(["start", "startTime", "dueDate", "deadline", "expiry", "availableAt", "collectionAt", "lastFaucetAt"]);
const BPS_ARGS = new Set(["rateBps", "parBps", "feeBps", "minRateBps", "maxRateBps"]);

/** An argument as the page shows it: addresses link, stablecoin amounts read as USD, bytes that are text read as text. */
function present(name: string, value: unknown, contract: string): ArgValue {
  if (typeof value === "string" && /^0x[0-9a-fA-F]{40}$/.test(value)) return { kind: "address", value };
  if (typeof value === "bigint" && MONEY_ARGS.has(name) && contract !== "Unknown") return { kind: "amount", value };
  if ((typeof value === "bigint" || typeof value === "number") && contract !== "Unknown") {
    if (TIME_ARGS.has(name)) return { kind: "time", value: BigInt(value) };
    if (BPS_ARGS.has(name)) return { kind: "bps", value: BigInt(value) };
  }
  if (typeof value === "string" && isHex(value) && value.length > 2 && value.length !== 66) {
    try {
      const text = hexToString(value);
      if (/^[\x20-\x7e]+$/.test(text)) return { kind: "text", value: text };
    } catch {
      /* not text */
    }
  }
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return value.map(String).join(", ");
  return String(value);
}

function argsOf(abiItemInputs: readonly { name?: string }[] | undefined, args: unknown, contract: string) {
  if (!args) return [];
  if (Array.isArray(args)) return args.map((v, i) => ({ name: abiItemInputs?.[i]?.name || `arg${i}`, value: present(abiItemInputs?.[i]?.name ?? "", v, contract) }));
  return Object.entries(args as Record<string, unknown>).map(([name, v]) => ({ name, value: present(name, v, contract) }));
}

export function decodeLog(log: Log, contracts: Map<string, KnownContract>): DecodedEvent {
  const known = contracts.get(log.address.toLowerCase());
  const base = { logIndex: log.logIndex ?? 0, blockNumber: log.blockNumber, txHash: log.transactionHash, address: log.address };
  if (known) {
    try {
      const decoded = decodeEventLog({ abi: known.abi, data: log.data, topics: log.topics as [Hex, ...Hex[]] });
      const item = known.abi.find((x) => x.type === "event" && x.name === decoded.eventName) as { inputs?: { name?: string }[] } | undefined;
      return { ...base, contract: known.name, name: decoded.eventName ?? "Event", args: argsOf(item?.inputs, decoded.args, known.name) };
    } catch {
      /* falls through to the raw view */
    }
  }
  return { ...base, contract: known?.name ?? "Unknown", name: "Unknown event", args: log.topics.map((t, i) => ({ name: `topic${i}`, value: t })) };
}

export interface DecodedCall {
  contract: string;
  functionName: string;
  args: { name: string; value: ArgValue }[];
  /** Bytes sent past the arguments (the vault page puts the move's reason there). */
  note: string | null;
}

export function decodeCall(to: string | null, input: Hex, contracts: Map<string, KnownContract>): DecodedCall | null {
  if (!to || input === "0x") return null;
  const known = contracts.get(to.toLowerCase());
  if (!known) return null;
  try {
    const decoded = decodeFunctionData({ abi: known.abi, data: input });
    const item = known.abi.find((x) => x.type === "function" && x.name === decoded.functionName && (x.inputs?.length ?? 0) === (decoded.args?.length ?? 0)) as
      { inputs?: { name?: string }[] } | undefined;
    // Static arguments take 32 bytes each: anything after them is a note the sender appended.
    let note: string | null = null;
    const staticOnly = item?.inputs?.every((i) => !/bytes$|string|\[\]/.test((i as { type?: string }).type ?? "")) ?? false;
    if (staticOnly) {
      const end = 2 + 8 + 64 * (item?.inputs?.length ?? 0);
      if (input.length > end) {
        try {
          const text = hexToString(`0x${input.slice(end)}` as Hex);
          if (/^[\x20-\x7e]+$/.test(text)) note = text;
        } catch {
          note = null;
        }
      }
    }
    return { contract: known.name, functionName: decoded.functionName, args: argsOf(item?.inputs, decoded.args, known.name), note };
  } catch {
    return { contract: known.name, functionName: input.slice(0, 10), args: [], note: null };
  }
}

export const topicOf = (value: bigint | string) => (typeof value === "bigint" ? pad(toHex(value), { size: 32 }) : pad(value.toLowerCase() as Hex, { size: 32 }));

/** Logs of our contracts with `topic` in any of the indexed positions (1 to 3), oldest first, without duplicates. */
export async function logsMentioning(client: PublicClient, addresses: Address[], topic: Hex, positions: number[] = [1, 2, 3]): Promise<Log[]> {
  const batches = await Promise.all(
    positions.map((p) => {
      const topics: (Hex | null)[] = [null, null, null, null].slice(0, p + 1);
      topics[p] = topic;
      return client.request({ method: "eth_getLogs", params: [{ address: addresses, fromBlock: "earliest", toBlock: "latest", topics }] }) as Promise<Log[]>;
    }),
  );
  const seen = new Set<string>();
  const all: Log[] = [];
  for (const raw of batches.flat()) {
    const log = {
      ...raw,
      blockNumber: raw.blockNumber !== null ? BigInt(raw.blockNumber as unknown as string) : null,
      logIndex: raw.logIndex !== null ? Number(raw.logIndex as unknown as string) : null,
    } as Log;
    const key = `${log.transactionHash}:${log.logIndex}`;
    if (!seen.has(key)) {
      seen.add(key);
      all.push(log);
    }
  }
  return all.sort((a, b) => Number((a.blockNumber ?? 0n) - (b.blockNumber ?? 0n)) || (a.logIndex ?? 0) - (b.logIndex ?? 0));
}
