import type { WalletCall } from "../wallet/walletCall";
import type { ListingLapseReason } from "#domain/statuses";

/** A note's cheapest open signed listing, as the marketplace browse answers it (api/src/orders/bestPrices.ts). */
export interface SignedListingSummary {
  hash: string;
  seller: string;
  priceKind: "fixed" | "par";
  parBps: number;
  priceNow: string;
  createdAt: string;
}
/** A note's highest open offer, on it or on any matching note, as the marketplace browse answers it. */
export interface BestOfferSummary {
  hash: string;
  kind: "offer" | "matchingOffer";
  buyer: string;
  priceNow: string;
}

/** The spec's "Marketplace NFT record" as the API sends it (money as decimal strings in USD). */
export interface NftRecord {
  _id: string;
  loanId: string | null;
  tokenId: string;
  contractAddress: string | null;
  transactionHash: string;
  ownerAddress: string;
  custodyAddress: string;
  borrowerAddress: string;
  previousOwners: string[];
  inVault: boolean;
  metadata: {
    name: string;
    description: string;
    image: string | null;
    loanDetails: { amount: string; interestRate: number; termMonths: number; purpose: string; status: string; approvalDate: string | null };
  };
  marketplaceStatus: "listed" | "unlisted" | "vaulted" | "repaid";
  listingPrice: string | null;
  listingDate: string | null;
  listingTxHash: string | null;
  sellerAddress: string | null;
  isActive: boolean;
  totalRepaid: string;
  outstandingBalance: string;
  monthlyPayment: string;
  totalDue: string;
  totalInterest: string;
  startTime: number;
  explorerUrl: string;
  createdAt: string | null;
  performance?: "excellent" | "good" | "average" | "poor";
  /** The holder's last listing ended without a sale (a repayment, a default…): shown to the holder. */
  listingLapse?: { reason: ListingLapseReason; amount: string | null; txHash: string | null } | null;
  /** The cheapest open signed listing of the note (browse answers only). */
  signedListing?: SignedListingSummary | null;
  /** The highest open offer on the note, its own or a matching one (browse answers only). */
  bestOffer?: BestOfferSummary | null;
}

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
}

export interface PortfolioResult {
  walletAddress: string | null;
  nfts: NftRecord[];
  loanNotes: NftRecord[];
  credits: { credited: string; withdrawn: string; available: string; withdrawCall: WalletCall | null };
  vaultHistory: (ChainEntry & { tokenId: string; kind: "deposit" | "withdraw" })[];
  stats: { totalLoans: number; totalValue: string; totalRepaid: string; avgRate: number; activeCount: number; portfolioValue: string };
}
