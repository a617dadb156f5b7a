import { http } from "../http";
import type { WalletCall } from "../wallet/walletCall";
import { unwrap } from "./unwrap";

export const prepareList = (id: string, listingPrice: string) => unwrap<{ calls: WalletCall[]; action: "list" | "updatePrice" }>(http.put(`/nfts/${id}/list`, { listingPrice }));
