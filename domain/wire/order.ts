import { z } from "zod";
import { ethAddress } from "../schemas/common";
import { usdAmount } from "../schemas/loans";
import { parseUsd } from "../money";
import { ORDER_KINDS, ORDER_STATUSES } from "../orders";

/**
 * Signed orders as /api/orders answers and takes them (api/src/orders/wire.ts is typed by these, the app
 * parses with them). Amounts are decimal USD strings as everywhere on the wire;
 * `message` is the EIP-712 message exactly as signed, every uint a decimal string of its on-chain unit
 * (micro-dollars, seconds, basis points), so a wallet or a filler can pass it to the contract unchanged.
 */

export const ORDER_MESSAGES = {
  kind: "Order kind must be listing, offer or matchingOffer",
  tokenId: "Token id must be a whole number",
  tokenIdRequired: "A listing or an offer needs the note's token id",
  priceKind: "Price kind must be fixed or par",
  price: "Price must be greater than 0",
  priceFormat: "Price must be a number with at most 6 decimals",
  priceRequired: "A fixed price needs a price",
  parBps: "Percentage of par must be from 1 to 20000 basis points (0.01% to 200%)",
  parRequired: "A matching offer is priced as a percentage of par",
  cap: "Cap must be greater than 0",
  budget: "Budget must be greater than 0",
  budgetRequired: "A matching offer needs a budget",
  expiresInDays: "Expiry must be from 1 to 180 days",
  range: "Ranges must be whole numbers, each minimum at most its maximum",
  maxDaysPastDue: "Days past due must be a whole number from 0 (current notes only) to 3650",
  message: "The signed message is missing or malformed",
  signatureFormat: "Signature must be 65 bytes as 0x-prefixed hex",
} as const;

/** The longest an order may run, and the default. */
export const ORDER_EXPIRY_DAYS = { min: 1, max: 180, default: 30 } as const;
/** Par prices from 0.01% to 200% of the outstanding principal. */
export const PAR_BPS_LIMITS = { min: 1, max: 20_000 } as const;
/** How late a note an order may accept, in days past due; 0, current notes only, is the default everywhere. */
export const MAX_DAYS_PAST_DUE_LIMITS = { min: 0, max: 3_650, default: 0 } as const;
/** A matching offer's least term left when none is asked for: a matured note never matches by accident. */
export const DEFAULT_MIN_TERM_LEFT = 1;

const uintString = z.string().regex(/^[0-9]{1,78}$/);
const text = z.string().nullable();

/**
 * A matching offer's ranges; a null maximum means "no bound" (signed as the largest uint256). Rates are basis points,
 * terms left are seconds to maturity at the fill, outstanding principals USD.
 */
export const wireOrderRangesSchema = z.object({
  minRateBps: z.number(),
  maxRateBps: z.number().nullable(),
  minTermLeft: z.number(),
  maxTermLeft: z.number().nullable(),
  minOutstanding: z.string(),
  maxOutstanding: z.string().nullable(),
});
export type WireOrderRanges = z.infer<typeof wireOrderRangesSchema>;

export const wireOrderSchema = z.object({
  /** The EIP-712 digest, lowercase: the contract's hash and the id in OrderFilled/OrderCancelled. */
  hash: z.string(),
  kind: z.enum(ORDER_KINDS),
  signer: z.string(),
  tokenId: text,
  priceKind: z.enum(["fixed", "par"]),
  /** The fixed price (USD); null for a par price. */
  price: text,
  /** Basis points of the outstanding principal (plus the interest accrued and unpaid); 0 for a fixed price. */
  parBps: z.number(),
  /** The most days past due the note may be at a fill; 0: current notes only. */
  maxDaysPastDue: z.number(),
  /** An offer's most at par (USD); null otherwise. */
  cap: text,
  ranges: wireOrderRangesSchema.nullable(),
  budget: text,
  /** What a matching offer has spent so far (USD); "0" for the others. */
  filled: z.string(),
  expiresAt: z.string(),
  status: z.enum(ORDER_STATUSES),
  statusReason: text,
  /**
   * What a fill would pay now (USD): the fixed price, or floor(parBps × outstanding / 10,000) plus the interest
   * accrued and unpaid, capped by `cap`;
   * for a matching offer shown in a note's book, its price for that note. Null when it cannot be priced (no note).
   */
  priceNow: text,
  message: z.record(z.string(), z.string()),
  signature: z.string(),
  createdAt: z.string(),
});
export type WireOrder = z.infer<typeof wireOrderSchema>;

/**
 * GET /api/orders/note/{tokenId}: the open orders on a note; bestOffer is the highest priceNow of offers and matching.
 * `late`: the orders on the note that would be open but for the note being further past due than they accept, each
 * with its reason; none of them can fill until the borrower cures the loan.
 */
export const orderBookSchema = z.object({
  listings: z.array(wireOrderSchema),
  offers: z.array(wireOrderSchema),
  matchingOffers: z.array(wireOrderSchema),
  bestOffer: wireOrderSchema.nullable(),
  late: z.array(wireOrderSchema),
});
export type OrderBook = z.infer<typeof orderBookSchema>;

/** GET /api/orders/mine: what the caller signed (every status) and the open offers on the notes they hold. */
export const myOrdersSchema = z.object({ made: z.array(wireOrderSchema), received: z.array(wireOrderSchema) });
export type MyOrders = z.infer<typeof myOrdersSchema>;

/** GET /api/orders/matching: every open offer on any matching note (priceNow null: it depends on the note). */
export const matchingOffersSchema = z.object({ matchingOffers: z.array(wireOrderSchema) });
export type MatchingOffers = z.infer<typeof matchingOffersSchema>;

/** The EIP-712 typed data a wallet signs (eth_signTypedData_v4), uints as decimal strings. */
export const orderTypedDataSchema = z.object({
  domain: z.object({ name: z.string(), version: z.string(), chainId: z.number(), verifyingContract: z.string() }),
  types: z.record(z.string(), z.array(z.object({ name: z.string(), type: z.string() }))),
  primaryType: z.enum(["Listing", "Offer", "MatchingOffer"]),
  message: z.record(z.string(), z.string()),
});
export type OrderTypedData = z.infer<typeof orderTypedDataSchema>;

// ------------------------------------------------------------------ requests

const uint = z
  .union([uintString, z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)], { error: ORDER_MESSAGES.message })
  .transform((v) => BigInt(v))
  .refine((v) => v < 1n << 256n, ORDER_MESSAGES.message);
const address = ethAddress.transform((v) => v.toLowerCase() as `0x${string}`);

export const listingMessageSchema = z.object({
  seller: address,
  tokenId: uint,
  price: uint,
  parBps: uint,
  changes: uint,
  maxDaysPastDue: uint,
  expiry: uint,
  salt: uint,
  counter: uint,
});
export const offerMessageSchema = z.object({
  buyer: address,
  tokenId: uint,
  price: uint,
  parBps: uint,
  cap: uint,
  changes: uint,
  maxDaysPastDue: uint,
  expiry: uint,
  salt: uint,
  counter: uint,
});
export const matchingOfferMessageSchema = z.object({
  buyer: address,
  parBps: uint,
  minRateBps: uint,
  maxRateBps: uint,
  minTermLeft: uint,
  maxTermLeft: uint,
  minOutstanding: uint,
  maxOutstanding: uint,
  maxDaysPastDue: uint,
  budget: uint,
  expiry: uint,
  salt: uint,
  counter: uint,
});

const signature = z.string({ error: ORDER_MESSAGES.signatureFormat }).regex(/^0x([0-9a-fA-F]{2})+$/, ORDER_MESSAGES.signatureFormat);

/**
 * POST /api/orders: a signed order. The signature is hex of any length here (an EIP-1271 wallet's may be longer);
 * the service refuses a 64-byte compact or high-s ECDSA one as the contract does.
 */
export const orderSubmissionSchema = z.discriminatedUnion(
  "kind",
  [
    z.object({ kind: z.literal("listing"), message: listingMessageSchema, signature }),
    z.object({ kind: z.literal("offer"), message: offerMessageSchema, signature }),
    z.object({ kind: z.literal("matchingOffer"), message: matchingOfferMessageSchema, signature }),
  ],
  { error: ORDER_MESSAGES.kind },
);
export type OrderSubmission = z.infer<typeof orderSubmissionSchema>;

const optionalUsd = (message: string) => z.preprocess((v) => (v === null || v === "" ? undefined : v), usdAmount(message, ORDER_MESSAGES.priceFormat).optional());
const wholeNumber = (message: string, min: number, max: number) =>
  z.preprocess((v) => (v === null || v === "" ? undefined : typeof v === "string" ? Number(v) : v), z.number({ error: message }).int(message).min(min, message).max(max, message).optional());
const rangeBound = wholeNumber(ORDER_MESSAGES.range, 0, Number.MAX_SAFE_INTEGER);
const usdBound = z.preprocess(
  (v) => (v === null || v === "" ? undefined : v),
  z
    .union([z.string(), z.number()], { error: ORDER_MESSAGES.range })
    .transform((v, ctx) => {
      try {
        return parseUsd(v);
      } catch {
        ctx.addIssue({ code: "custom", message: ORDER_MESSAGES.range });
        return z.NEVER;
      }
    })
    .optional(),
);

/** A matching offer's ranges as asked for: rates in basis points, terms left in seconds, outstanding in USD; a missing bound is open. */
export const orderRangesRequestSchema = z
  .object({
    minRateBps: rangeBound,
    maxRateBps: rangeBound,
    minTermLeft: rangeBound,
    maxTermLeft: rangeBound,
    minOutstanding: usdBound,
    maxOutstanding: usdBound,
  })
  .superRefine((r, ctx) => {
    const pairs = [
      [r.minRateBps, r.maxRateBps],
      [r.minTermLeft, r.maxTermLeft],
      [r.minOutstanding, r.maxOutstanding],
    ] as const;
    for (const [min, max] of pairs) {
      if (min !== undefined && max !== undefined && BigInt(min) > BigInt(max)) ctx.addIssue({ code: "custom", message: ORDER_MESSAGES.range });
    }
  });
export type OrderRangesRequest = z.infer<typeof orderRangesRequestSchema>;

/**
 * POST /api/orders/typed-data: the order the caller wants to sign. The API fills in the signer (the caller's verified
 * wallet), the on-chain counter, the note's change count, a random salt and the expiry.
 */
export const orderTypedDataRequestSchema = z
  .object({
    kind: z.enum(ORDER_KINDS, { error: ORDER_MESSAGES.kind }),
    tokenId: z.preprocess(
      (v) => (typeof v === "number" ? String(v) : v),
      z
        .string()
        .regex(/^[0-9]{1,78}$/, ORDER_MESSAGES.tokenId)
        .optional(),
    ),
    priceKind: z.enum(["fixed", "par"], { error: ORDER_MESSAGES.priceKind }).default("par"),
    price: optionalUsd(ORDER_MESSAGES.price),
    parBps: wholeNumber(ORDER_MESSAGES.parBps, PAR_BPS_LIMITS.min, PAR_BPS_LIMITS.max),
    cap: optionalUsd(ORDER_MESSAGES.cap),
    ranges: orderRangesRequestSchema.optional(),
    budget: optionalUsd(ORDER_MESSAGES.budget),
    maxDaysPastDue: wholeNumber(ORDER_MESSAGES.maxDaysPastDue, MAX_DAYS_PAST_DUE_LIMITS.min, MAX_DAYS_PAST_DUE_LIMITS.max).default(MAX_DAYS_PAST_DUE_LIMITS.default),
    expiresInDays: wholeNumber(ORDER_MESSAGES.expiresInDays, ORDER_EXPIRY_DAYS.min, ORDER_EXPIRY_DAYS.max).default(ORDER_EXPIRY_DAYS.default),
  })
  .superRefine((r, ctx) => {
    if (r.kind !== "matchingOffer" && r.tokenId === undefined) ctx.addIssue({ code: "custom", path: ["tokenId"], message: ORDER_MESSAGES.tokenIdRequired });
    if (r.kind === "matchingOffer") {
      if (r.priceKind !== "par" || r.parBps === undefined) ctx.addIssue({ code: "custom", path: ["parBps"], message: ORDER_MESSAGES.parRequired });
      if (r.budget === undefined) ctx.addIssue({ code: "custom", path: ["budget"], message: ORDER_MESSAGES.budgetRequired });
    } else if (r.priceKind === "fixed" && r.price === undefined) {
      ctx.addIssue({ code: "custom", path: ["price"], message: ORDER_MESSAGES.priceRequired });
    } else if (r.priceKind === "par" && r.parBps === undefined) {
      ctx.addIssue({ code: "custom", path: ["parBps"], message: ORDER_MESSAGES.parBps });
    }
  });
export type OrderTypedDataRequest = z.infer<typeof orderTypedDataRequestSchema>;
