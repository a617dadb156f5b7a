import { http } from "../http";
import type { WalletCall } from "../wallet/walletCall";
import { unwrap } from "./unwrap";

export const prepareUnlist = (id: string) => unwrap<{ call: WalletCall }>(http.put(`/nfts/${id}/unlist`));
