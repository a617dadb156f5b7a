import { useQuery } from "@tanstack/react-query";
import { usePublicClient } from "wagmi";
import { testDollarAbi } from "#domain/abis";
import { useRuntimeConfig } from "../config";

/** The wallet's test dollars, read from the stablecoin contract (micro-dollars); fresh each time a review opens. */
export function useTestDollarBalance(address: string | undefined) {
  const client = usePublicClient();
  const stablecoin = useRuntimeConfig().data?.contracts?.stablecoin;
  return useQuery({
    queryKey: ["test-dollar-balance", stablecoin, address?.toLowerCase()],
    queryFn: () => client!.readContract({ address: stablecoin as `0x${string}`, abi: testDollarAbi, functionName: "balanceOf", args: [address as `0x${string}`] }),
    enabled: Boolean(client && stablecoin && address),
    staleTime: 0,
  });
}
