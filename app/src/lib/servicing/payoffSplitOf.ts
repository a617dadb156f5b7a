import { parseUsd } from "#domain/money";
import type { PayoffSplit } from "#domain/servicing";
import type { WireServicing } from "#domain/wire/servicing";

/** What would settle the note at the record's `asOf`, as a par price reads it: the two wire figures in micro-dollars. */
export function payoffSplitOf(servicing: Pick<WireServicing, "principalNow" | "interestNow">): PayoffSplit {
  return { principal: parseUsd(servicing.principalNow), interest: parseUsd(servicing.interestNow) };
}
