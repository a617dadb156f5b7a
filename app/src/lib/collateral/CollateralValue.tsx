import { belowCollateralRatio, COLLATERAL_RATIO_PERCENT, collateralValue, loanToValueBps } from "#domain/loanToValue";
import { displayUsd, parseUsd } from "#domain/money";
import type { WireLoan } from "#domain/wire/loan";
import { bpsPercentText, percentText } from "../format";

const micro = (value: string | null | undefined) => {
  if (!value) return null;
  try {
    return parseUsd(value);
  } catch {
    return null;
  }
};

/** The collateral's value a page states: a lower appraisal replaces the borrower's estimate (domain/loanToValue.ts). */
export function collateralFigures(collateral: WireLoan["collateral"]) {
  return collateralValue(micro(collateral?.value), micro(collateral?.nft?.appraisal));
}

/** "$4,000.00 (appraised; borrower's estimate $5,000.00)", or the estimate alone, labelled when an NFT awaits its appraisal. */
export function CollateralValue({ collateral }: { collateral: NonNullable<WireLoan["collateral"]> }) {
  const figures = collateralFigures(collateral);
  if (figures.value === null) return <>{collateral.value}</>;
  return (
    <span data-testid="collateral-value">
      {displayUsd(figures.value)}
      {figures.appraised ? (
        <span className="muted small"> (appraised; borrower's estimate {figures.estimate !== null ? displayUsd(figures.estimate) : "—"})</span>
      ) : collateral.nft ? (
        <span className="muted small"> (borrower's estimate)</span>
      ) : null}
    </span>
  );
}

/**
 * The wizard's rule, said where a loan is decided or reviewed: collateral worth less than 150% of the loan is warned
 * with its loan-to-value, so a 75% loan-to-value is never approved without a word. Nothing when the rule holds.
 */
export function LtvWarning({ principal, collateral, testId = "ltv-warning" }: { principal: bigint; collateral: WireLoan["collateral"]; testId?: string }) {
  const { value, appraised } = collateralFigures(collateral);
  if (!belowCollateralRatio(principal, value)) return null;
  const ltv = bpsPercentText(loanToValueBps(principal, value) ?? 0);
  const limit = percentText(10_000 / Number(COLLATERAL_RATIO_PERCENT));
  return (
    <p className="alert alert--warning small" role="status" data-testid={testId}>
      Loan-to-value {ltv}: the collateral ({displayUsd(value!)}
      {appraised ? ", appraised" : ""}) is worth less than {String(COLLATERAL_RATIO_PERCENT)}% of the loan ({displayUsd(principal)}), the request's rule; at most {limit} loan-to-value meets it.
    </p>
  );
}
