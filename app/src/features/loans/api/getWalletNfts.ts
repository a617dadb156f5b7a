import { useQuery } from "@tanstack/react-query";
import { wireWalletNftsSchema, type WireWalletNfts } from "#domain/wire/collateral";
import { http, type Envelope } from "../../../lib/http";
import { loanKeys } from "./keys";

/** GET /collateral/mine: the pieces of allowed collections that the caller's verified wallet holds (from the mirror). */
export async function getWalletNfts(): Promise<WireWalletNfts> {
  const { data } = await http.get<Envelope<unknown>>("/collateral/mine");
  return wireWalletNftsSchema.parse(data.data);
}

/** Read when the wizard's collateral step shows the picker; a piece pledged a moment ago must show as pledged. */
export function useWalletNfts(enabled: boolean) {
  return useQuery({ queryKey: loanKeys.walletNfts, queryFn: getWalletNfts, enabled, staleTime: 0 });
}
