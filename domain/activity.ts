/** The kinds of on-chain activity the API reports for a user (`GET /api/activity`), read from the chain mirror. */
export const ACTIVITY_KINDS = [
  "loan_disbursement",
  "repayment",
  "repayment_received",
  "nft_purchase",
  "nft_sale",
  "nft_transfer",
  "vault_deposit",
  "vault_withdraw",
  "withdrawal",
  "mint",
  "burn",
] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];
