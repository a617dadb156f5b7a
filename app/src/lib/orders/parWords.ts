import { displayUsdExact } from "#domain/money";
import { PAR_BPS, parPrice } from "#domain/orders";
import type { PayoffSplit } from "#domain/servicing";
import { bpsText } from "./bpsText";

/**
 * A percentage of par in dollars with its two parts, since par is the dirty price: "100% of par is $10,050.00:
 * $10,000.00 principal + $50.00 interest accrued and unpaid". Every decimal is kept so the parts add up to the price.
 */
export function parBreakdown(split: PayoffSplit, parBps: bigint | number): string {
  const bps = BigInt(parBps);
  const principal = bps === PAR_BPS ? displayUsdExact(split.principal) : `${bpsText(bps)} of ${displayUsdExact(split.principal)}`;
  return `${bpsText(bps)} of par is ${displayUsdExact(parPrice(split, bps))}: ${principal} principal + ${displayUsdExact(split.interest)} interest accrued and unpaid`;
}

/** What a person reads wherever "par" is offered as a choice: it is not the principal alone. */
export const PAR_MEANS = "par is the principal still owed plus the interest accrued and unpaid, what would pay the loan off now";
