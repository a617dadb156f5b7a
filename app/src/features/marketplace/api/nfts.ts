import { http, type Envelope } from "../../../lib/http";

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
}

export interface ChainEntry {
  txHash: string;
  blockNumber: number;
  time: string | null;
}

export interface NftDetails extends NftRecord {
  terms: { principal: string; interestRate: number; rateBps: number; termMonths: number; startTime: number };
  noteStatus: "active" | "repaid" | "defaulted";
  burned: boolean;
  depositor: string | null;
  repayments: (ChainEntry & { payer: string; beneficiary: string; amount: string; totalRepaid: string })[];
  sales: (ChainEntry & { seller: string; buyer: string; price: string; fee: string })[];
  listings: (ChainEntry & { seller: string; price: string; status: string; closedTxHash: string | null })[];
}

export interface Ownership {
  tokenId: string;
  currentOwner: string | null;
  holder: string | null;
  inVault: boolean;
  previousOwners: string[];
  history: (ChainEntry & { kind: "mint" | "sale" | "transfer" | "vault_deposit" | "vault_withdraw" | "burn"; from: string; to: string; price: string | null })[];
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

export interface BrowseResult {
  nfts: NftRecord[];
  pagination: { page: number; limit: number; total: number; totalPages: number };
  stats: { totalListed: number; totalValue: string; activeLenders: number; avgRate: number };
}

/** A transaction the wallet sends, as the API answers it. */
export interface WalletCall {
  to: `0x${string}`;
  data: `0x${string}`;
  value: string;
  chainId: number;
  step?: string;
}

export interface PermitRequest {
  domain: { name: string; version: string; chainId: number; verifyingContract: `0x${string}` };
  types: { Permit: { name: string; type: string }[] };
  primaryType: "Permit";
  message: { owner: `0x${string}`; spender: `0x${string}`; value: string; nonce: string; deadline: string };
}

export interface PortfolioResult {
  walletAddress: string | null;
  nfts: NftRecord[];
  loanNotes: NftRecord[];
  credits: { credited: string; withdrawn: string; available: string; withdrawCall: WalletCall | null };
  vaultHistory: (ChainEntry & { tokenId: string; kind: "deposit" | "withdraw" })[];
  stats: { totalLoans: number; totalValue: string; totalRepaid: string; avgRate: number; activeCount: number; portfolioValue: string };
}

const data = <T>(p: Promise<{ data: Envelope<T> }>) => p.then((r) => r.data.data);

export function browseMarketplace(q: BrowseQuery) {
  const params: Record<string, string> = { page: String(q.page), limit: String(q.limit), sort: q.sort };
  if (q.search) params.search = q.search;
  if (q.minAmount) params.minAmount = q.minAmount;
  if (q.maxAmount) params.maxAmount = q.maxAmount;
  if (q.rateBand?.length) params.rateBand = q.rateBand.join(",");
  if (q.amountBand?.length) params.amountBand = q.amountBand.join(",");
  return data<BrowseResult>(http.get("/nfts/marketplace/browse", { params }));
}

export const getNft = (id: string) => data<NftDetails>(http.get(`/nfts/${encodeURIComponent(id)}`));
export const getOwnership = (id: string) => data<Ownership>(http.get(`/nfts/${encodeURIComponent(id)}/ownership`));
export const getPortfolio = () => data<PortfolioResult>(http.get("/nfts/my-portfolio", { params: { page: 1, limit: 50 } }));

export const prepareBuy = (id: string, body: { expectedPrice: string; signature?: string; deadline?: string }) =>
  data<{ price: string; permit: PermitRequest; deadline: string; call: WalletCall | null }>(http.post(`/nfts/${id}/buy`, body));
export const prepareList = (id: string, listingPrice: string) => data<{ calls: WalletCall[]; action: "list" | "updatePrice" }>(http.put(`/nfts/${id}/list`, { listingPrice }));
export const prepareUnlist = (id: string) => data<{ call: WalletCall }>(http.put(`/nfts/${id}/unlist`));
export const prepareTransfer = (id: string, body: { fromAddress: string; toAddress: string; reason?: string }) =>
  data<{ kind: "deposit" | "withdraw" | "transfer"; call: WalletCall }>(http.post(`/nfts/${id}/transfer`, body));

export const marketplaceKeys = {
  all: ["marketplace"] as const,
  browse: (q: BrowseQuery) => ["marketplace", "browse", q] as const,
  nft: (id: string) => ["marketplace", "nft", id] as const,
  ownership: (id: string) => ["marketplace", "ownership", id] as const,
  portfolio: ["portfolio"] as const,
};

/** Resolves once the API's chain mirror has indexed `block` (or after its own short wait), so reads show the user's own move. */
export const waitForMirror = (block: bigint) =>
  data<{ blockNumber: number; caughtUp: boolean }>(http.get("/nfts/mirror", { params: { minBlock: block.toString() }, timeout: 10_000 })).catch(() => null);
