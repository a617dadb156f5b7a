/**
 * Loan-to-value of an NFT-secured loan, the one rule the API's answers and the admin's live preview share:
 * the principal (the requested amount before approval) over the admin's appraisal, both in micro-dollars, in basis
 * points rounded half up. Null without a positive appraisal.
 */
export function loanToValueBps(principal: bigint, appraisal: bigint | null): number | null {
  if (appraisal === null || appraisal <= 0n || principal < 0n) return null;
  return Number((principal * 10_000n + appraisal / 2n) / appraisal);
}

/**
 * The loan request wizard's rule: collateral should be worth at least 150% of the loan. The same rule warns the
 * admin approving and the borrower reading the request, so the three never disagree.
 */
export const COLLATERAL_RATIO_PERCENT = 150n;

/** True when the collateral is worth less than 150% of the principal (a loan-to-value above 66.67%). */
export function belowCollateralRatio(principal: bigint, value: bigint | null): boolean {
  if (value === null || principal <= 0n) return false;
  return value * 100n < principal * COLLATERAL_RATIO_PERCENT;
}

/**
 * The collateral's value as the pages state it: the admin's appraisal when it is lower than the borrower's estimate
 * (the estimate then only said beside it), else the estimate. A higher appraisal does not raise the borrower's figure.
 */
export function collateralValue(estimate: bigint | null, appraisal: bigint | null): { value: bigint | null; estimate: bigint | null; appraised: boolean } {
  if (appraisal !== null && (estimate === null || appraisal < estimate)) return { value: appraisal, estimate, appraised: true };
  return { value: estimate, estimate, appraised: false };
}
