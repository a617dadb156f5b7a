import type { WalletCall } from "../wallet/walletCall";
import type { WireNft } from "#domain/wire/nft";

/** The spec's "Marketplace NFT record" as the API sends it: domain/wire/nft.ts. */
export type NftRecord = WireNft;

export interface ChainEntry {
  txHash: string;
  blockNumber: number;
  time: string | null;
}

export interface BrowseQuery {
  page: number;
  limit: number;
  sort: "newest" | "amount" | "interestRate" | "termMonths";
  search?: string;
  minAmount?: string;
  maxAmount?: string;
  rateBand?: string[];
  amountBand?: string[];
  /** Issue 20: notes secured by an NFT ("nft") or without one ("none"); any when unset. */
  collateral?: "nft" | "none";
}

export interface PortfolioResult {
  walletAddress: string | null;
  nfts: NftRecord[];
  loanNotes: NftRecord[];
  credits: { credited: string; withdrawn: string; available: string; withdrawCall: WalletCall | null };
  vaultHistory: (ChainEntry & { tokenId: string; kind: "deposit" | "withdraw" })[];
  stats: { totalLoans: number; totalValue: string; totalRepaid: string; avgRate: number; activeCount: number; portfolioValue: string };
}
