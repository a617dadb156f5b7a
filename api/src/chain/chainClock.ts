import type { PublicClient } from "viem";

type BlockReader = Pick<PublicClient, "getBlock">;
/** A read in flight per client, shared by the callers that ask meanwhile (a list of loans asks once per loan). */
const inFlight = new WeakMap<BlockReader, Promise<bigint>>();

/**
 * The chain's clock in unix seconds: the latest block's time, or the wall clock while no block has been mined for a
 * while. Servicing figures (days past due, accrued interest) are judged by it, as the contract judges them by
 * block.timestamp: a local chain moved forward in time is late when the contract says so, not when the wall clock does.
 * An unreachable node leaves the wall clock: reads of the mirror still answer.
 */
export function chainNow(publicClient: BlockReader): Promise<bigint> {
  const pending = inFlight.get(publicClient);
  if (pending) return pending;
  const wall = BigInt(Math.floor(Date.now() / 1000));
  const read = publicClient
    .getBlock({ blockTag: "latest" })
    .then((b) => (b.timestamp > wall ? b.timestamp : wall))
    .catch(() => wall)
    .finally(() => inFlight.delete(publicClient));
  inFlight.set(publicClient, read);
  return read;
}
