import { displayUsd, parseUsd } from "../../../../../domain/money";

export const usd = (value: string | null | undefined) => (value == null ? "—" : displayUsd(parseUsd(value)));

export const KIND_LABELS: Record<string, string> = {
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
