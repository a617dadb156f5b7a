import { useQuery } from "@tanstack/react-query";
import { type Address, type Hash } from "viem";
import { useRuntimeConfig } from "../../../lib/config";
import { loanNoteAbi, testDollarAbi } from "#domain/abis";
import { chainClient, decodeCall, decodeLog, knownContracts, logsMentioning, topicOf } from "../../../lib/explorer/chain";

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
        stablecoin ? client.readContract({ address: stablecoin, abi: testDollarAbi, functionName: "balanceOf", args: [address] }) : Promise.resolve(null),
        loanNote ? client.readContract({ address: loanNote, abi: loanNoteAbi, functionName: "balanceOf", args: [address] }) : Promise.resolve(null),
        loanNote ? client.readContract({ address: loanNote, abi: loanNoteAbi, functionName: "creditsOf", args: [address] }) : Promise.resolve(null),
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
