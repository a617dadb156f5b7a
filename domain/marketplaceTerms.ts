// The marketplace's words, sorts and bands, apart from the schemas (schemas/nfts.ts re-exports them) so the
// app's marketplace page can use them without loading zod.
import { SHARED_MESSAGES } from "./schemas/sharedMessages";

/** The vault transfer's messages and the marketplace's own answers, one wording on both sides of the wire. */
export const NFT_MESSAGES = {
  selectNft: "Please select an NFT",
  walletRequired: "Wallet address is required",
  walletFormat: SHARED_MESSAGES.walletAddress,
  transferFailed: "Failed to transfer NFT. Please try again.",
  transferStarted: "NFT transfer initiated successfully!",
  listingPrice: SHARED_MESSAGES.listingPrice,
  priceFormat: "Listing price must be a number with at most 6 decimals",
  expectedPrice: "Please provide the price you expect to pay",
  signature: SHARED_MESSAGES.permitSignature,
  loadFailed: "Failed to load marketplace data. Please try again.",
  portfolioFailed: "Failed to load portfolio data. Please try again.",
  noLoans: "No loans found",
  limit: "Limit must be a whole number from 1 to 100",
  page: "Page must be a whole number of 1 or more",
  sort: "Sort must be one of newest, amount, interestRate, termMonths",
  band: "Unknown band",
  amountRange: "Minimum amount cannot exceed maximum amount",
  amountFilter: "Amount filters must be non-negative amounts in USD",
  tokenId: "NFT id must be a token id (a whole number)",
  collateralFilter: "Collateral must be nft or none",
} as const;

/** The marketplace's collateral filter: notes secured by an escrowed NFT, or notes without one. */
export const COLLATERAL_FILTERS = ["nft", "none"] as const;
export type CollateralFilter = (typeof COLLATERAL_FILTERS)[number];

export const MARKETPLACE_SORTS = ["newest", "amount", "interestRate", "termMonths"] as const;
export type MarketplaceSort = (typeof MARKETPLACE_SORTS)[number];

/** The marketplace filter's bands, in micro-dollars and basis points: [from, below). */
export const AMOUNT_BANDS = {
  small: [0n, 5_000_000_000n],
  medium: [5_000_000_000n, 15_000_000_000n],
  large: [15_000_000_000n, null],
} as const;
export const RATE_BANDS = {
  low: [0, 800],
  medium: [800, 1200],
  high: [1200, null],
} as const;
export type AmountBand = keyof typeof AMOUNT_BANDS;
export type RateBand = keyof typeof RATE_BANDS;

export const MARKETPLACE_PAGE = { page: 1, limit: 20, maxLimit: 100 } as const;
