import { http } from "../../../lib/http";
import { unwrap } from "../../../lib/nfts/unwrap";
import type { WalletCall } from "../../../lib/wallet/walletCall";

export const prepareTransfer = (id: string, body: { fromAddress: string; toAddress: string; reason?: string }) =>
  unwrap<{ kind: "deposit" | "withdraw" | "transfer"; call: WalletCall }>(http.post(`/nfts/${id}/transfer`, body));
