// Without zod, so the app's marketplace terms can name them without loading it (see ../marketplaceTerms.ts).
/** Spec messages that several areas' rules give, written once; each area's *_MESSAGES names them. */
export const SHARED_MESSAGES = {
  walletAddress: "Please enter a valid wallet address",
  emailAddress: "Please enter a valid email address",
  phone: "Please enter a valid phone number",
  permitSignature: "Please provide a valid permit signature",
  listingPrice: "Listing price must be greater than 0",
  /** Loan rejections always had it; a KYC rejection needs its reason as much. */
  rejectionReason: "Please provide a rejection reason",
} as const;
