import { http } from "../../../lib/http";
import { unwrap } from "../../../lib/nfts/unwrap";
import type { ChainEntry, NftRecord } from "../../../lib/nfts/types";

export interface NftDetails extends NftRecord {
  terms: { principal: string; interestRate: number; rateBps: number; termMonths: number; startTime: number };
  noteStatus: "active" | "repaid" | "defaulted";
  burned: boolean;
  depositor: string | null;
  repayments: (ChainEntry & { payer: string; beneficiary: string; amount: string; totalRepaid: string })[];
  sales: (ChainEntry & { seller: string; buyer: string; price: string; fee: string })[];
  listings: (ChainEntry & { seller: string; price: string; status: string; closedTxHash: string | null })[];
}

export const getNft = (id: string) => unwrap<NftDetails>(http.get(`/nfts/${encodeURIComponent(id)}`));
