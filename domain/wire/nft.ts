import { z } from "zod";
import { LISTING_LAPSE_REASONS } from "../statuses";
import { wirePledgedNftSchema } from "./collateral";
import { wireServicingSchema } from "./servicing";

const text = z.string().nullable();
const usd = z.string();

export const MARKETPLACE_STATUSES = ["listed", "unlisted", "vaulted", "repaid"] as const;
export const PERFORMANCE_GRADES = ["excellent", "good", "average", "poor"] as const;

/** A note's cheapest open signed listing, priced now (api/src/orders/bestPrices.ts). */
export const signedListingSummarySchema = z.object({
  hash: z.string(),
  seller: z.string(),
  priceKind: z.enum(["fixed", "par"]),
  parBps: z.number(),
  priceNow: usd,
  createdAt: z.string(),
});
export type SignedListingSummary = z.infer<typeof signedListingSummarySchema>;

/** A note's highest open offer, made on it or on any note it matches, priced now. */
export const bestOfferSummarySchema = z.object({
  hash: z.string(),
  kind: z.enum(["offer", "matchingOffer"]),
  buyer: z.string(),
  priceNow: usd,
});
export type BestOfferSummary = z.infer<typeof bestOfferSummarySchema>;

/**
 * The spec's "Marketplace NFT record", money as decimal strings in USD: api/src/nfts/wire.ts builds it,
 * the app reads it. `ownerAddress` is who holds the note (the depositor while vaulted), `custodyAddress` the ERC-721 owner.
 */
export const wireNftSchema = z.object({
  _id: z.string(),
  loanId: text,
  tokenId: z.string(),
  contractAddress: text,
  transactionHash: z.string(),
  ownerAddress: z.string(),
  custodyAddress: z.string(),
  borrowerAddress: z.string(),
  previousOwners: z.array(z.string()),
  inVault: z.boolean(),
  metadata: z.object({
    name: z.string(),
    description: z.string(),
    image: text,
    attributes: z.array(z.object({ trait_type: z.string(), value: z.union([z.string(), z.number()]) })),
    loanDetails: z.object({
      amount: usd,
      interestRate: z.number(),
      termMonths: z.number(),
      purpose: z.string(),
      status: z.string(),
      approvalDate: text,
    }),
  }),
  verbwireData: z.object({ mintedAt: text, network: z.string() }),
  marketplaceStatus: z.enum(MARKETPLACE_STATUSES),
  listingPrice: usd.nullable(),
  listingDate: text,
  listingTxHash: text,
  sellerAddress: text,
  /** The holder's last listing ended without a sale (a repayment, a default…): shown to the holder. */
  listingLapse: z.object({ reason: z.enum(LISTING_LAPSE_REASONS), amount: usd.nullable(), txHash: text }).nullable(),
  isActive: z.boolean(),
  totalRepaid: usd,
  outstandingBalance: usd,
  monthlyPayment: usd,
  totalDue: usd,
  totalInterest: usd,
  startTime: z.number(),
  explorerUrl: z.string(),
  createdAt: text,
  updatedAt: text,
  /** On a single note's answer: how far the repayments are behind the schedule. */
  performance: z.enum(PERFORMANCE_GRADES).optional(),
  /** Where the loan stands against its schedule now: current, late, delinquent, defaulted or repaid. */
  servicing: wireServicingSchema,
  /** The ERC-721 escrowed for the note's loan, null when it has none. */
  collateral: wirePledgedNftSchema.nullable(),
  /** Browse answers only: the note's best signed listing and best offer. */
  signedListing: signedListingSummarySchema.nullable().optional(),
  bestOffer: bestOfferSummarySchema.nullable().optional(),
});
export type WireNft = z.infer<typeof wireNftSchema>;
