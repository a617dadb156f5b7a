import type { ActivityKind } from "#domain/activity";

/** How each kind of on-chain activity reads, the same on the dashboard and on /transactions. */
export const ACTIVITY_LABELS: Partial<Record<ActivityKind, string>> = {
  loan_disbursement: "Loan disbursement",
  repayment: "Repayment",
  repayment_received: "Repayment received",
  nft_purchase: "Note bought",
  nft_sale: "Note sold",
  nft_transfer: "Note transfer",
  vault_deposit: "Vault deposit",
  vault_withdraw: "Vault withdrawal",
  withdrawal: "Repayments withdrawn",
};

export const activityLabel = (kind: string): string => ACTIVITY_LABELS[kind as ActivityKind] ?? kind;
