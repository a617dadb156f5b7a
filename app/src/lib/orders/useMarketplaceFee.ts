import { useQuery } from "@tanstack/react-query";
import { usePublicClient } from "wagmi";
import type { Address } from "viem";
import { noteMarketplaceAbi } from "#domain/abis";
import { useRuntimeConfig } from "../config";

/** The marketplace's fee in basis points, read from the contract: the seller receives the price less this share. */
export function useMarketplaceFeeBps() {
  const client = usePublicClient();
  const marketplace = useRuntimeConfig().data?.contracts?.marketplace as Address | undefined;
  return useQuery({
    queryKey: ["marketplace-fee-bps", marketplace],
    queryFn: async () => BigInt(await client!.readContract({ address: marketplace!, abi: noteMarketplaceAbi, functionName: "feeBps" })),
    enabled: Boolean(client && marketplace),
    staleTime: 60_000,
  });
}

/** The fee of a sale at `price` (micro-dollars), rounded down as the contract does. */
export const feeOf = (price: bigint, feeBps: bigint) => (price * feeBps) / 10_000n;
