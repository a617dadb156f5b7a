import { z } from "zod";
import { parseUsd } from "../money";
import { ethAddress } from "./common";
import { usdAmount } from "./loans";
import { ORDER_MESSAGES, PAR_BPS_LIMITS } from "../wire/order";
import { AMOUNT_BANDS, COLLATERAL_FILTERS, MARKETPLACE_PAGE, MARKETPLACE_SORTS, NFT_MESSAGES, RATE_BANDS, type AmountBand, type RateBand } from "../marketplaceTerms";

export { AMOUNT_BANDS, COLLATERAL_FILTERS, MARKETPLACE_PAGE, MARKETPLACE_SORTS, NFT_MESSAGES, RATE_BANDS };
export type { AmountBand, CollateralFilter, MarketplaceSort, RateBand } from "../marketplaceTerms";

const wholeNumber = (message: string, min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.preprocess((value) => (typeof value === "string" && value.trim() !== "" ? Number(value) : value), z.number({ error: message }).int(message).min(min, message).max(max, message));

/** "a,b" or ["a","b"] or "a": a set of names from `allowed`. */
const nameList = <T extends string>(allowed: readonly T[], message: string) =>
  z.preprocess(
    (value) => {
      if (value === undefined || value === null || value === "") return undefined;
      const items = (Array.isArray(value) ? value : [value])
        .flatMap((v) => String(v).split(","))
        .map((v) => v.trim())
        .filter(Boolean);
      return items.length ? items : undefined;
    },
    z.array(z.enum(allowed as [T, ...T[]], { error: message })).optional(),
  );

const usdFilter = z.preprocess(
  (value) => (value === undefined || value === null || (typeof value === "string" && value.trim() === "") ? undefined : value),
  z
    .unknown()
    .transform((value, ctx): bigint => {
      try {
        const micro = parseUsd(value as string | number);
        if (micro >= 0n) return micro;
      } catch {
        /* reported below */
      }
      ctx.addIssue({ code: "custom", message: NFT_MESSAGES.amountFilter });
      return z.NEVER;
    })
    .optional(),
);

/** GET /nfts/marketplace/browse and /loans/marketplace/list. */
export const marketplaceQuerySchema = z
  .object({
    page: wholeNumber(NFT_MESSAGES.page, 1).default(MARKETPLACE_PAGE.page),
    limit: wholeNumber(NFT_MESSAGES.limit, 1, MARKETPLACE_PAGE.maxLimit).default(MARKETPLACE_PAGE.limit),
    sort: z.preprocess((v) => (v === "" ? undefined : v), z.enum(MARKETPLACE_SORTS, { error: NFT_MESSAGES.sort }).default("newest")),
    minAmount: usdFilter,
    maxAmount: usdFilter,
    amountBand: nameList(Object.keys(AMOUNT_BANDS) as AmountBand[], NFT_MESSAGES.band),
    rateBand: nameList(Object.keys(RATE_BANDS) as RateBand[], NFT_MESSAGES.band),
    search: z.preprocess((v) => (typeof v === "string" ? v.trim().slice(0, 100) || undefined : undefined), z.string().optional()),
    /** nft: notes secured by an escrowed NFT; none: notes without one. */
    collateral: z.preprocess((v) => (v === "" || v === "all" ? undefined : v), z.enum(COLLATERAL_FILTERS, { error: NFT_MESSAGES.collateralFilter }).optional()),
  })
  .superRefine((q, ctx) => {
    if (q.minAmount !== undefined && q.maxAmount !== undefined && q.minAmount > q.maxAmount) {
      ctx.addIssue({ code: "custom", path: ["minAmount"], message: NFT_MESSAGES.amountRange });
    }
  });
export type MarketplaceQuery = z.infer<typeof marketplaceQuerySchema>;

export const tokenIdSchema = z
  .string()
  .regex(/^[0-9]{1,78}$/, NFT_MESSAGES.tokenId)
  .transform((v) => BigInt(v));

/**
 * PUT /nfts/{id}/list {listingPrice, parBps?}: with parBps the signed listing is at that share of par and
 * listingPrice is what the seller saw it come to today.
 */
export const listNftSchema = z.object({
  listingPrice: usdAmount(NFT_MESSAGES.listingPrice, NFT_MESSAGES.priceFormat),
  parBps: wholeNumber(ORDER_MESSAGES.parBps, PAR_BPS_LIMITS.min, PAR_BPS_LIMITS.max).optional(),
});

const signature = z.string().regex(/^0x[0-9a-fA-F]{130}$/, NFT_MESSAGES.signature);

/** POST /nfts/{id}/buy {expectedPrice}; sent again with the permit's signature and deadline it answers the complete call. */
export const buyNftSchema = z.object({
  expectedPrice: usdAmount(NFT_MESSAGES.expectedPrice),
  signature: signature.optional(),
  deadline: z.preprocess(
    (v) => (typeof v === "number" ? String(v) : v),
    z
      .string()
      .regex(/^[0-9]{1,20}$/)
      .optional(),
  ),
});

const requiredAddress = z.preprocess((v) => (typeof v === "string" ? v.trim() : v), z.string({ error: NFT_MESSAGES.walletRequired }).min(1, NFT_MESSAGES.walletRequired).pipe(ethAddress));

/**
 * POST /nfts/{id}/transfer {fromAddress, toAddress, reason?}. With toAddress the vault it is a deposit, with
 * fromAddress the vault a withdrawal ("NFT Vault Transfer"); the reason travels with the transaction.
 */
export const transferNftSchema = z.object({
  fromAddress: requiredAddress,
  toAddress: requiredAddress,
  reason: z.preprocess((v) => (typeof v === "string" ? v.trim().slice(0, 200) || undefined : undefined), z.string().optional()),
});

/** The vault page's form. */
export const vaultTransferFormSchema = z.object({
  nftTokenId: z.string({ error: NFT_MESSAGES.selectNft }).min(1, NFT_MESSAGES.selectNft),
  transferType: z.enum(["deposit", "withdraw"]),
  walletAddress: z
    .string()
    .optional()
    .refine((v) => v === undefined || v.trim() !== "", NFT_MESSAGES.walletRequired),
  reason: z.string().max(200).optional(),
});

/** Which band an amount (micro-dollars) or a rate (basis points) falls in. */
export function amountBandOf(micro: bigint): AmountBand {
  return micro < AMOUNT_BANDS.small[1] ? "small" : micro < AMOUNT_BANDS.medium[1] ? "medium" : "large";
}
export function rateBandOf(bps: number): RateBand {
  return bps < RATE_BANDS.low[1] ? "low" : bps < RATE_BANDS.medium[1] ? "medium" : "high";
}
