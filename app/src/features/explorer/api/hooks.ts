import { useQuery } from "@tanstack/react-query";
import { formatEther, type Address, type Hash } from "viem";
import { useRuntimeConfig } from "../../../lib/config";
import { loanNoteAbi, testDollarAbi } from "../../../../../domain/abis";
import { chainClient, decodeCall, decodeLog, knownContracts, logsMentioning, topicOf } from "./chain";

/** A transaction with its receipt, block time, decoded call and decoded events. */
export function useTransaction(hash: Hash) {
  const config = useRuntimeConfig().data;
  return useQuery({
    queryKey: ["explorer", "tx", hash],
    enabled: Boolean(config),
    staleTime: 10_000,
    queryFn: async () => {
      const client = chainClient(config!);
      const contracts = knownContracts(config!);
      const tx = await client.getTransaction({ hash });
      const receipt = await client.getTransactionReceipt({ hash }).catch(() => null);
      const block = tx.blockNumber !== null ? await client.getBlock({ blockNumber: tx.blockNumber }) : null;
      return {
        tx,
        receipt,
        time: block ? new Date(Number(block.timestamp) * 1000) : null,
        call: decodeCall(tx.to, tx.input, contracts),
        events: (receipt?.logs ?? []).map((log) => decodeLog(log, contracts)),
        value: formatEther(tx.value),
      };
    },
  });
}

/** An account or contract: balances, nonce, and every event of our contracts that names it. */
export function useAddress(address: Address) {
  const config = useRuntimeConfig().data;
  return useQuery({
    queryKey: ["explorer", "address", address.toLowerCase()],
    enabled: Boolean(config),
    staleTime: 10_000,
    queryFn: async () => {
      const client = chainClient(config!);
      const contracts = knownContracts(config!);
      const ours = [...contracts.values()].map((c) => c.address);
      const stablecoin = config!.contracts?.stablecoin as Address | undefined;
      const loanNote = config!.contracts?.loanNote as Address | undefined;
      const [balance, nonce, code, dollars, notes, credits, logs] = await Promise.all([
        client.getBalance({ address }),
        client.getTransactionCount({ address }),
        client.getCode({ address }),
        stablecoin ? (client.readContract({ address: stablecoin, abi: testDollarAbi, functionName: "balanceOf", args: [address] }) as Promise<bigint>) : Promise.resolve(null),
        loanNote ? (client.readContract({ address: loanNote, abi: loanNoteAbi, functionName: "balanceOf", args: [address] }) as Promise<bigint>) : Promise.resolve(null),
        loanNote ? (client.readContract({ address: loanNote, abi: loanNoteAbi, functionName: "creditsOf", args: [address] }) as Promise<bigint>) : Promise.resolve(null),
        ours.length ? logsMentioning(client, ours, topicOf(address)) : Promise.resolve([]),
      ]);
      const own = contracts.get(address.toLowerCase());
      // A contract of ours: its own latest events, too.
      const emitted = own ? await client.getLogs({ address: own.address, fromBlock: "earliest", toBlock: "latest" }) : [];
      const events = [...logs, ...emitted.slice(-200)].map((log) => decodeLog(log, contracts));
      const unique = new Map(events.map((e) => [`${e.txHash}:${e.logIndex}`, e]));
      return {
        balance,
        nonce,
        isContract: Boolean(code && code !== "0x"),
        dollars,
        notes,
        credits,
        contract: own?.name ?? null,
        events: [...unique.values()].sort((a, b) => Number((b.blockNumber ?? 0n) - (a.blockNumber ?? 0n)) || b.logIndex - a.logIndex),
      };
    },
  });
}

/** A loan note on-chain: owner, terms, metadata, and every event of our contracts about this token. */
export function useToken(tokenId: bigint) {
  const config = useRuntimeConfig().data;
  return useQuery({
    queryKey: ["explorer", "token", tokenId.toString()],
    enabled: Boolean(config?.contracts),
    staleTime: 10_000,
    queryFn: async () => {
      const client = chainClient(config!);
      const contracts = knownContracts(config!);
      const c = config!.contracts!;
      const note = c.loanNote as Address;
      const [owner, loan, uri, logs] = await Promise.all([
        (client.readContract({ address: note, abi: loanNoteAbi, functionName: "ownerOf", args: [tokenId] }) as Promise<Address>).catch(() => null),
        (client.readContract({ address: note, abi: loanNoteAbi, functionName: "loanOf", args: [tokenId] }) as Promise<Record<string, unknown>>).catch(() => null),
        (client.readContract({ address: note, abi: loanNoteAbi, functionName: "tokenURI", args: [tokenId] }) as Promise<string>).catch(() => null),
        // tokenId is the first indexed argument of the product's events, and the third of Transfer and Approval.
        Promise.all([
          logsMentioning(client, [note, c.marketplace as Address, c.vault as Address], topicOf(tokenId), [1]),
          logsMentioning(client, [note], topicOf(tokenId), [3]),
        ]).then(([a, b]) => [...a, ...b]),
      ]);
      let metadata: { name?: string; description?: string; attributes?: { trait_type: string; value: unknown }[] } | null = null;
      if (uri?.startsWith("data:application/json;base64,")) {
        try {
          metadata = JSON.parse(atob(uri.slice("data:application/json;base64,".length)));
        } catch {
          metadata = null;
        }
      } else if (uri?.startsWith("data:application/json,")) {
        try {
          metadata = JSON.parse(decodeURIComponent(uri.slice("data:application/json,".length)));
        } catch {
          metadata = null;
        }
      }
      const events = logs.map((log) => decodeLog(log, contracts)).sort((a, b) => Number((a.blockNumber ?? 0n) - (b.blockNumber ?? 0n)) || a.logIndex - b.logIndex);
      return { owner, loan, metadata, events, exists: owner !== null || events.length > 0 };
    },
  });
}
