import { useQuery } from "@tanstack/react-query";
import { usePublicClient } from "wagmi";
import { encodeFunctionData, type Address } from "viem";
import { testDollarAbi } from "#domain/abis";
import { useRuntimeConfig } from "../config";
import type { WalletCall } from "../wallet/walletCall";

/**
 * How many test dollars the marketplace may take from `owner` (micro-dollars): an offer is paid by allowance when a
 * holder accepts it, so an offer above it waits as "unfunded" until the buyer allows more.
 */
export function useMarketplaceAllowance(owner: string | undefined) {
  const client = usePublicClient();
  const contracts = useRuntimeConfig().data?.contracts;
  return useQuery({
    queryKey: ["marketplace-allowance", contracts?.stablecoin, owner?.toLowerCase()],
    queryFn: () => client!.readContract({ address: contracts!.stablecoin as Address, abi: testDollarAbi, functionName: "allowance", args: [owner as Address, contracts!.marketplace as Address] }),
    enabled: Boolean(client && contracts && owner),
    staleTime: 0,
  });
}

/** ERC-20 `approve(marketplace, amount)`: what the marketplace may take when a holder accepts the user's offers. */
export function approveMarketplaceCall(config: { chainId: number; contracts: { stablecoin: string; marketplace: string } }, amount: bigint): WalletCall {
  return {
    to: config.contracts.stablecoin as Address,
    data: encodeFunctionData({ abi: testDollarAbi, functionName: "approve", args: [config.contracts.marketplace as Address, amount] }),
    value: "0",
    chainId: config.chainId,
  };
}
