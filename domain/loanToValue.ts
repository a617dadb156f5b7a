/**
 * Loan-to-value of an NFT-secured loan, the one rule the API's answers and the admin's live preview share:
 * the principal (the requested amount before approval) over the admin's appraisal, both in micro-dollars, in basis
 * points rounded half up. Null without a positive appraisal.
 */
export function loanToValueBps(principal: bigint, appraisal: bigint | null): number | null {
  if (appraisal === null || appraisal <= 0n || principal < 0n) return null;
  return Number((principal * 10_000n + appraisal / 2n) / appraisal);
}
