import { parseUsd, typedUsd } from "#domain/money";

/**
 * Loan-to-value in basis points, principal (or the requested amount before approval) over the appraisal, from
 * micro-dollars in bigint (rounded half up): what the review shows while the admin types, before the API answers
 * its own figure. Null without a positive appraisal.
 */
export function loanToValueBps(principal: bigint, appraisal: bigint | null): number | null {
  if (appraisal === null || appraisal <= 0n || principal < 0n) return null;
  return Number((principal * 10_000n + appraisal / 2n) / appraisal);
}

/** Micro-dollars of what the admin typed ("1,500.00"), or null while it is not an amount. */
export function typedMicro(text: string): bigint | null {
  try {
    return parseUsd(typedUsd(text));
  } catch {
    return null;
  }
}
