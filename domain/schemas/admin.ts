import { z } from "zod";
import { KYC_STATUSES } from "../statuses";
import { usdAmount } from "./loans";
import { SHARED_MESSAGES } from "./sharedMessages";
import { ORDER_MESSAGES } from "../wire/order";

export const ADMIN_MESSAGES = {
  price: SHARED_MESSAGES.listingPrice,
} as const;

export const ADMIN_ACCEPT_MESSAGES = {
  tokenId: ORDER_MESSAGES.tokenId,
  minPrice: "The price you reviewed must be a positive dollar amount",
} as const;

const blank = (value: unknown) => value === undefined || value === null || (typeof value === "string" && value.trim() === "");

/** GET /admin/users: search by name, email or wallet; filter by KYC status and role. */
export const adminUsersQuerySchema = z.object({
  page: z.preprocess((value) => (blank(value) ? undefined : Number(value)), z.number().int().min(1).default(1).catch(1)),
  limit: z.preprocess((value) => (blank(value) ? undefined : Number(value)), z.number().int().min(1).max(100).default(20).catch(20)),
  search: z.preprocess((value) => (blank(value) || typeof value !== "string" ? undefined : value.trim()), z.string().max(200).optional()),
  kycStatus: z.preprocess((value) => (blank(value) || value === "all" ? undefined : value), z.enum(KYC_STATUSES).optional().catch(undefined)),
  role: z.preprocess((value) => (blank(value) || value === "all" ? undefined : value), z.enum(["user", "admin"]).optional().catch(undefined)),
});

/** PUT /admin/treasury/notes/{tokenId}/price {listingPrice} (or {price}): list or reprice a treasury note. */
export const repriceSchema = z
  .object({ listingPrice: z.unknown().optional(), price: z.unknown().optional() })
  .transform((body) => body.listingPrice ?? body.price)
  .pipe(usdAmount(ADMIN_MESSAGES.price));

/**
 * POST /admin/treasury/offers/{hash}/accept {tokenId, minPrice}: the treasury's note to sell (a matching offer names
 * none, so it is always sent) and the price the admin reviewed, the least the acceptance may fetch.
 */
export const treasuryAcceptSchema = z.object({
  tokenId: z
    .string({ message: ADMIN_ACCEPT_MESSAGES.tokenId })
    .regex(/^[0-9]{1,78}$/, ADMIN_ACCEPT_MESSAGES.tokenId)
    .transform((v) => BigInt(v)),
  minPrice: usdAmount(ADMIN_ACCEPT_MESSAGES.minPrice),
});
