import { COLLATERAL_TYPE_LABELS } from "#domain/schemas/loans";

/** The wizard's own lists; its submissions are judged by the standard form's rules. */
export const WIZARD_PURPOSES = ["Business Investment", "NFT Purchase", "DeFi Trading", "Real Estate", "Personal", "Education", "Emergency", "Other"] as const;
export const WIZARD_TERMS = [1, 2, 3, 6, 12, 24] as const;
export const WIZARD_DEFAULT_RATE = "5";
export const COLLATERAL_TYPES = Object.entries(COLLATERAL_TYPE_LABELS).map(([value, label]) => ({ value, label }));
/** Collateral should be worth at least 150% of the loan: a hint here, a warning at the review and the approval. */
export { COLLATERAL_RATIO_PERCENT } from "#domain/loanToValue";

export const WIZARD_STEPS = [
  { title: "Loan Details", fields: ["amount", "purpose"] },
  { title: "Terms", fields: ["interestRate", "termMonths"] },
  { title: "Collateral", fields: ["collateral", "collateral.type", "collateral.nft", "collateral.value", "collateral.description"] },
] as const;
