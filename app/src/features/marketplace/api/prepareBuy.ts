import { http } from "../../../lib/http";
import { unwrap } from "../../../lib/nfts/unwrap";
import type { PermitRequest, WalletCall } from "../../../lib/wallet/walletCall";

export const prepareBuy = (id: string, body: { expectedPrice: string; signature?: string; deadline?: string }) =>
  unwrap<{ price: string; permit: PermitRequest; deadline: string; calls: { approve: WalletCall; buy: WalletCall; buyWithPermit?: WalletCall }; call: WalletCall | null }>(
    http.post(`/nfts/${id}/buy`, body),
  );
