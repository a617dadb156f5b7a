import { http } from "../http";
import type { WalletCall } from "../wallet/walletCall";
import { unwrap } from "./unwrap";

/** PUT /nfts/{id}/unlist: the calls that end the note's listings, signed ones (cancelOrders) and an on-chain one. */
export const prepareUnlist = (id: string) => unwrap<{ call: WalletCall; calls?: WalletCall[]; orderHashes?: string[] }>(http.put(`/nfts/${id}/unlist`));
