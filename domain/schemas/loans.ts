import { z } from "zod";
import { parseUsd } from "../money";
import { ethAddress } from "./common";
import { SHARED_MESSAGES } from "./sharedMessages";

/** The one rule set for loan requests, the standard form's. */
export const LOAN_MESSAGES = {
  amountPositive: "Loan amount must be greater than 0",
  amountMin: "Minimum loan amount is $1,000",
  amountMax: "Maximum loan amount is $1,000,000",
  amountFormat: "Loan amount must be a number with at most 6 decimals",
  purpose: "Loan purpose is required",
  rateMin: "Interest rate must be at least 0.1%",
  rateMax: "Interest rate cannot exceed 50%",
  rateDecimals: "Interest rate can have at most 2 decimals",
  termMin: "Loan term must be at least 1 month",
  termMax: "Loan term cannot exceed 360 months",
  termWhole: "Loan term must be a whole number of months",
  collateralType: "Collateral type is required",
  collateralValue: "Collateral value must be greater than 0",
  collateralDescription: "Collateral description is required",
  formInvalid: "Please fix the errors in the form",
  submitFailed: "Failed to submit loan request",
  rejectionReason: SHARED_MESSAGES.rejectionReason,
  fundingPositive: "Funding amount must be greater than 0",
  fundingAboveAmount: "Funding amount cannot exceed the requested amount",
  walletFormat: SHARED_MESSAGES.walletAddress,
  repaymentAmount: "Repayment amount must be greater than 0",
  installment: "Installment number must be a whole number of 1 or more",
  signature: SHARED_MESSAGES.permitSignature,
  /** Past the per-user rate limit of loan requests (429; docs/decisions.md "Abuse limits"). */
  requestRate: "You have sent too many loan requests. Please try again later.",
  /** Past the cap on one borrower's requests awaiting review (400). */
  pendingCap: (max: number) => `You already have ${max} loan ${max === 1 ? "request" : "requests"} awaiting review. Please wait for a decision before requesting another loan.`,
} as const;

/**
 * A pledged ERC-721: the request's refusals (400), the admin's appraisal, the approval's live checks (409,
 * nothing changes) and the claim after a default. The app shows them as they are.
 */
export const COLLATERAL_MESSAGES = {
  chooseNft: "Choose an NFT to pledge",
  verifyWallet: "Verify a wallet before pledging an NFT",
  collectionNotAllowed: "This collection is not accepted as collateral",
  notHeld: "Your verified wallet does not hold this NFT",
  alreadyPledged: "This NFT is already pledged to another request",
  noPledge: "This loan has no pledged NFT",
  appraisalPositive: "Appraised value must be greater than 0",
  appraisalNotPending: "Only a pending request's NFT can be appraised",
  appraisalMissing: "Enter an appraised value for the NFT before approving",
  collectionNoLongerAllowed: "This collection is no longer accepted as collateral",
  borrowerNoLongerHolds: "The borrower's wallet no longer holds the pledged NFT",
  escrowNotApproved: "The borrower has not approved the escrow for the pledged NFT yet",
  claimNotHolder: "Only the note's holder can claim its collateral",
  claimNotNow: "This note's collateral cannot be claimed now",
  claimRecipient: "Choose a wallet address to receive the NFT",
} as const;

export const LOAN_LIMITS = {
  minAmountMicro: 1_000_000_000n,
  maxAmountMicro: 1_000_000_000_000n,
  minRatePercent: 0.1,
  maxRatePercent: 50,
  minTermMonths: 1,
  maxTermMonths: 360,
  defaultRatePercent: 8.5,
  defaultTermMonths: 12,
} as const;

export const STANDARD_PURPOSES = ["personal", "business", "education", "home_improvement", "debt_consolidation", "medical", "investment", "other"] as const;

/** The wizard's collateral types (nft or other) as people read them; the standard form's free text shows as typed. */
export const COLLATERAL_TYPE_LABELS: Readonly<Record<string, string>> = { nft: "NFT", other: "Other asset" };
export const collateralTypeLabel = (type: string) => COLLATERAL_TYPE_LABELS[type] ?? type;

const blank = (value: unknown) => value === undefined || value === null || (typeof value === "string" && value.trim() === "");

/** A USD amount (decimal string or number) as micro-dollars; `message` for anything not a positive amount. */
const MAX_UINT256 = (1n << 256n) - 1n;

export function usdAmount(message: string, formatMessage: string = message) {
  return z.unknown().transform((value, ctx): bigint => {
    if (blank(value) || (typeof value !== "string" && typeof value !== "number")) {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    const text = typeof value === "number" ? value : value.trim();
    if (typeof text === "number" ? !(text > 0) : /^-/.test(text) || Number(text) <= 0) {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    try {
      const micro = parseUsd(text);
      // Above uint256 no contract call can carry it: it is a bad amount, not a server error.
      if (micro <= 0n || micro > MAX_UINT256) {
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      return micro;
    } catch {
      ctx.addIssue({ code: "custom", message: formatMessage });
      return z.NEVER;
    }
  });
}

/** A number sent as a number or a numeric string. */
const numeric = (message: string) =>
  z.unknown().transform((value, ctx): number => {
    const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
    if (!Number.isFinite(n)) {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    return n;
  });

const amount = usdAmount(LOAN_MESSAGES.amountPositive, LOAN_MESSAGES.amountFormat).superRefine((micro, ctx) => {
  if (micro < LOAN_LIMITS.minAmountMicro) ctx.addIssue({ code: "custom", message: LOAN_MESSAGES.amountMin });
  else if (micro > LOAN_LIMITS.maxAmountMicro) ctx.addIssue({ code: "custom", message: LOAN_MESSAGES.amountMax });
});

/** Percent on the wire, basis points inside. */
const interestRateBps = numeric(LOAN_MESSAGES.rateMin).transform((percent, ctx): number => {
  if (percent < LOAN_LIMITS.minRatePercent) {
    ctx.addIssue({ code: "custom", message: LOAN_MESSAGES.rateMin });
    return z.NEVER;
  }
  if (percent > LOAN_LIMITS.maxRatePercent) {
    ctx.addIssue({ code: "custom", message: LOAN_MESSAGES.rateMax });
    return z.NEVER;
  }
  const bps = Math.round(percent * 100);
  if (Math.abs(bps - percent * 100) > 1e-6) {
    ctx.addIssue({ code: "custom", message: LOAN_MESSAGES.rateDecimals });
    return z.NEVER;
  }
  return bps;
});

const termMonths = numeric(LOAN_MESSAGES.termMin).transform((months, ctx): number => {
  if (months < LOAN_LIMITS.minTermMonths) ctx.addIssue({ code: "custom", message: LOAN_MESSAGES.termMin });
  else if (months > LOAN_LIMITS.maxTermMonths) ctx.addIssue({ code: "custom", message: LOAN_MESSAGES.termMax });
  else if (!Number.isInteger(months)) ctx.addIssue({ code: "custom", message: LOAN_MESSAGES.termWhole });
  return months;
});

const requiredText = (message: string, max: number) => z.preprocess((value) => (typeof value === "string" ? value.trim() : value), z.string({ error: message }).min(1, message).max(max, message));

/** A token id as the wire writes it: a decimal string (or a whole number) within uint256. */
const decimalTokenId = (message: string) =>
  z.preprocess(
    (value) => (typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? String(value) : value),
    z
      .string({ error: message })
      .trim()
      .regex(/^[0-9]{1,78}$/, message)
      .transform((id) => BigInt(id))
      .refine((id) => id <= MAX_UINT256, message),
  );

/** The piece a borrower pledges: an ERC-721 collection (lowercased) and one of its token ids. */
export const pledgedNftSchema = z.object({
  collection: z
    .string({ error: COLLATERAL_MESSAGES.chooseNft })
    .trim()
    .regex(/^0x[0-9a-fA-F]{40}$/, COLLATERAL_MESSAGES.chooseNft)
    .transform((address) => address.toLowerCase()),
  tokenId: decimalTokenId(COLLATERAL_MESSAGES.chooseNft),
});
export type PledgedNftInput = z.infer<typeof pledgedNftSchema>;

/**
 * The request's collateral: type, value and description; with type "nft" also the pledged piece (`nft`), which the
 * API checks against the allow-list and the borrower's wallet. `nft` is ignored for any other type.
 */
export const collateralSchema = z
  .object(
    {
      type: requiredText(LOAN_MESSAGES.collateralType, 100),
      value: usdAmount(LOAN_MESSAGES.collateralValue),
      description: requiredText(LOAN_MESSAGES.collateralDescription, 2000),
      nft: z.unknown().optional(),
    },
    // Spec 02's first collateral rule names the type: what is not an object has none.
    { error: LOAN_MESSAGES.collateralType },
  )
  .transform((collateral, ctx) => {
    const { nft, ...rest } = collateral;
    if (rest.type !== "nft") return { ...rest, nft: undefined };
    const parsed = pledgedNftSchema.safeParse(nft ?? undefined);
    if (!parsed.success) {
      ctx.addIssue({ code: "custom", path: ["nft"], message: COLLATERAL_MESSAGES.chooseNft });
      return z.NEVER;
    }
    return { ...rest, nft: parsed.data };
  });

/** PUT /admin/loans/{id}/collateral/appraisal: the admin's appraised value of the pledged piece, USD. */
export const collateralAppraisalSchema = z.object({ appraisal: usdAmount(COLLATERAL_MESSAGES.appraisalPositive) });
export type CollateralAppraisalInput = z.infer<typeof collateralAppraisalSchema>;

/** POST /nfts/{tokenId}/collateral/claim: where the escrowed piece goes; the caller's verified wallet by default. */
export const collateralClaimSchema = z.object({
  to: z.preprocess((value) => (blank(value) ? undefined : value), ethAddress.transform((address) => address.toLowerCase()).optional()),
});
export type CollateralClaimInput = z.infer<typeof collateralClaimSchema>;

/** POST /loans/request (and the wizard's submissions): amount, purpose, interestRate, termMonths, optional collateral. */
export const loanRequestSchema = z.object({
  amount,
  purpose: requiredText(LOAN_MESSAGES.purpose, 200),
  interestRate: interestRateBps,
  termMonths,
  /** Absent, null or {} = no collateral; anything else is judged whole. */
  collateral: z.preprocess(
    (value) => (value === null || value === false || (typeof value === "object" && value !== null && Object.keys(value).length === 0) ? undefined : value),
    collateralSchema.optional(),
  ),
});
export type LoanRequestInput = z.infer<typeof loanRequestSchema>;

const optionalNotes = z.preprocess((value) => (blank(value) ? undefined : value), z.string().trim().max(2000).optional());

/** PUT /admin/loans/{id}/approve, and /loans/admin/approve/{id} with `notes`. */
export const loanApprovalSchema = z
  .object({
    walletAddress: z.preprocess((value) => (blank(value) ? undefined : value), ethAddress.optional()),
    adminNotes: optionalNotes,
    notes: optionalNotes,
    fundingAmount: z.preprocess((value) => (blank(value) ? undefined : value), usdAmount(LOAN_MESSAGES.fundingPositive).optional()),
  })
  .transform(({ notes, adminNotes, ...rest }) => ({ ...rest, adminNotes: adminNotes ?? notes }));
export type LoanApprovalInput = z.infer<typeof loanApprovalSchema>;

/** The admin funds at most what the borrower asked for: the form and the route both ask this. */
export const fundingWithinRequest = (fundingMicro: bigint, requestedMicro: bigint): boolean => fundingMicro <= requestedMicro;

/**
 * The admin's approval form, by the route's rules: a funding amount of at most `requestedMicro` (the server refuses
 * more with the same message) and the wallet the principal goes to, which the form always fills.
 */
export function approvalFormSchema(requestedMicro: bigint) {
  return z.object({
    fundingAmount: usdAmount(LOAN_MESSAGES.fundingPositive).refine((micro) => fundingWithinRequest(micro, requestedMicro), LOAN_MESSAGES.fundingAboveAmount),
    walletAddress: ethAddress,
    adminNotes: optionalNotes,
  });
}
export type ApprovalForm = z.infer<ReturnType<typeof approvalFormSchema>>;

/** PUT /admin/loans/{id}/reject {rejectionReason, adminNotes}, and /loans/admin/reject/{id} {reason, notes}. */
export const loanRejectionSchema = z
  .object({
    rejectionReason: z.unknown().optional(),
    reason: z.unknown().optional(),
    adminNotes: optionalNotes,
    notes: optionalNotes,
  })
  .transform((body, ctx) => {
    const raw = body.rejectionReason ?? body.reason;
    const reason = typeof raw === "string" ? raw.trim() : "";
    if (!reason) {
      ctx.addIssue({ code: "custom", message: LOAN_MESSAGES.rejectionReason, path: ["rejectionReason"] });
      return z.NEVER;
    }
    return { rejectionReason: reason.slice(0, 2000), adminNotes: body.adminNotes ?? body.notes };
  });
export type LoanRejectionInput = z.infer<typeof loanRejectionSchema>;

/** The spec's admin decision action: {loanId?, decision: {status, rejectionReason, fundingAmount}}. */
export const loanDecisionSchema = z.object({
  status: z.enum(["approved", "rejected"]),
  rejectionReason: z.string().optional(),
  fundingAmount: z.unknown().optional(),
});

/** PUT /loans/{id}/repayment: the amount to pay and the installment it is meant for; the signature comes second. */
export const repaymentSchema = z.object({
  amount: usdAmount(LOAN_MESSAGES.repaymentAmount),
  installmentNumber: z.preprocess(
    (value) => (blank(value) ? undefined : typeof value === "string" ? Number(value) : value),
    z.number({ error: LOAN_MESSAGES.installment }).int(LOAN_MESSAGES.installment).min(1, LOAN_MESSAGES.installment).optional(),
  ),
  /** The paying wallet; defaults to the borrower's verified wallet. */
  walletAddress: z.preprocess((value) => (blank(value) ? undefined : value), ethAddress.optional()),
  /** Seconds since the epoch; the permit's deadline, answered with the typed data and sent back with the signature. */
  deadline: z.preprocess((value) => (blank(value) ? undefined : typeof value === "string" ? Number(value) : value), z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional()),
  signature: z.preprocess(
    (value) => (blank(value) ? undefined : value),
    z
      .string({ error: LOAN_MESSAGES.signature })
      .regex(/^0x[0-9a-fA-F]{130}$/, LOAN_MESSAGES.signature)
      .optional(),
  ),
});
export type RepaymentInput = z.infer<typeof repaymentSchema>;

const page = z.preprocess((value) => (blank(value) ? undefined : Number(value)), z.number().int().min(1).default(1).catch(1));
const limit = (fallback: number) => z.preprocess((value) => (blank(value) ? undefined : Number(value)), z.number().int().min(1).max(100).default(fallback).catch(fallback));
const optionalQueryText = z.preprocess((value) => (blank(value) || typeof value !== "string" ? undefined : value.trim()), z.string().max(200).optional());

/** GET /loans/my-loans and the admin lists; unknown values fall back to the defaults rather than failing a page load. */
export const loanListQuerySchema = z.object({
  page,
  limit: limit(10),
  status: z.preprocess((value) => (blank(value) || value === "all" ? undefined : value), z.enum(["pending", "approved", "active", "completed", "rejected", "defaulted"]).optional().catch(undefined)),
  sortBy: z.enum(["requestDate", "amount", "createdAt", "interestRate", "termMonths"]).default("requestDate").catch("requestDate"),
  sortOrder: z.enum(["asc", "desc"]).default("desc").catch("desc"),
  minAmount: z.preprocess((value) => (blank(value) ? undefined : value), usdAmount("minAmount").optional().catch(undefined)),
  search: optionalQueryText,
});
export type LoanListQuery = z.infer<typeof loanListQuerySchema>;
