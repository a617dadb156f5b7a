import { http } from "../../../lib/http";
import { unwrap } from "../../../lib/nfts/unwrap";
import type { ChainEntry } from "../../../lib/nfts/types";

export interface Ownership {
  tokenId: string;
  currentOwner: string | null;
  holder: string | null;
  inVault: boolean;
  previousOwners: string[];
  history: (ChainEntry & { kind: "mint" | "sale" | "transfer" | "vault_deposit" | "vault_withdraw" | "burn"; from: string; to: string; price: string | null })[];
}

export const getOwnership = (id: string) => unwrap<Ownership>(http.get(`/nfts/${encodeURIComponent(id)}/ownership`));
