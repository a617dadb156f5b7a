import { useQuery } from "@tanstack/react-query";
import { useRuntimeConfig } from "./config";
import { chainClient } from "./explorer/chain";

const wallSeconds = () => Date.now() / 1000;

/**
 * Now on the chain's clock, in unix seconds: what a note's schedule, overdue installments and yield are judged
 * against, since its start and due dates are block times. A local chain moved forward (or a node whose clock drifts)
 * is months or seconds away from this browser's clock; the latest block's time minus the wall clock when it was
 * read is that gap. Until the first read it is the wall clock.
 */
export function useChainNow(): bigint {
  const config = useRuntimeConfig().data;
  const { data: gap } = useQuery({
    queryKey: ["chain-clock", config?.rpcUrl],
    enabled: Boolean(config),
    staleTime: 60_000,
    queryFn: async () => Number((await chainClient(config!).getBlock()).timestamp) - wallSeconds(),
  });
  return BigInt(Math.floor(wallSeconds() + Math.max(0, gap ?? 0)));
}
