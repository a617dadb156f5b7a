import { useQuery } from "@tanstack/react-query";
import { createPublicClient, http as viemHttp, type Hash, type Address } from "viem";
import { fetchConfig } from "../../../lib/config";

/** Reads go through the API's same-origin JSON-RPC proxy. */
async function client() {
  const config = await fetchConfig();
  return createPublicClient({ transport: viemHttp(new URL(config.rpcUrl, window.location.origin).toString()) });
}

export function useAddressInfo(address: Address) {
  return useQuery({
    queryKey: ["explorer", "address", address],
    staleTime: 10_000,
    queryFn: async () => {
      const c = await client();
      const [balance, nonce, code, block] = await Promise.all([c.getBalance({ address }), c.getTransactionCount({ address }), c.getCode({ address }), c.getBlockNumber()]);
      return { balance, nonce, isContract: Boolean(code && code !== "0x"), block };
    },
  });
}

export function useTransactionInfo(hash: Hash) {
  return useQuery({
    queryKey: ["explorer", "tx", hash],
    staleTime: 10_000,
    queryFn: async () => {
      const c = await client();
      const [tx, receipt] = await Promise.all([c.getTransaction({ hash }), c.getTransactionReceipt({ hash }).catch(() => null)]);
      return { tx, receipt };
    },
  });
}
