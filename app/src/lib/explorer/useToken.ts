import { useQuery } from "@tanstack/react-query";
import type { Address } from "viem";
import { useRuntimeConfig } from "../config";
import { loanNoteAbi } from "#domain/abis";
import { chainClient, decodeLog, knownContracts, logsMentioning, topicOf } from "./chain";
import { isOtherNotesCollateralEvent } from "./tokenCollateral";

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
        client.readContract({ address: note, abi: loanNoteAbi, functionName: "ownerOf", args: [tokenId] }).catch(() => null),
        client.readContract({ address: note, abi: loanNoteAbi, functionName: "loanOf", args: [tokenId] }).catch(() => null),
        client.readContract({ address: note, abi: loanNoteAbi, functionName: "tokenURI", args: [tokenId] }).catch(() => null),
        // tokenId is the first indexed argument of the product's events, the second of a signed order's OrderFilled,
        // and the third of Transfer and Approval.
        Promise.all([
          logsMentioning(client, [note, c.marketplace as Address, c.vault as Address, c.collateralEscrow as Address], topicOf(tokenId), [1]),
          logsMentioning(client, [c.marketplace as Address], topicOf(tokenId), [2]),
          logsMentioning(client, [note], topicOf(tokenId), [3]),
        ]).then(([a, b, d]) => [...a, ...b, ...d]),
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
      const events = logs
        .map((log) => decodeLog(log, contracts))
        .filter((event) => !isOtherNotesCollateralEvent(event, tokenId.toString()))
        .sort((a, b) => Number((a.blockNumber ?? 0n) - (b.blockNumber ?? 0n)) || a.logIndex - b.logIndex);
      return { owner, loan, metadata, events, exists: owner !== null || events.length > 0 };
    },
  });
}
