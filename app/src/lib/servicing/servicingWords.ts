import { parseUsd } from "#domain/money";
import type { ServicingStatus } from "#domain/statuses";
import type { WireServicing } from "#domain/wire/servicing";
import { countText, usd } from "../format";

/** The badge colour of each servicing status: late asks for attention, delinquent and defaulted are trouble. */
export const SERVICING_TONE: Record<ServicingStatus, "success" | "warning" | "danger" | "neutral"> = {
  current: "success",
  late: "warning",
  delinquent: "danger",
  defaulted: "danger",
  repaid: "neutral",
};

/** "Current", "Late (3 days past due)", "Delinquent (45 days)", "Defaulted", "Repaid". */
export function servicingLabel(servicing: Pick<WireServicing, "status" | "daysPastDue">): string {
  const days = countText(servicing.daysPastDue, "day");
  const labels: Record<ServicingStatus, string> = {
    current: "Current",
    late: `Late (${days} past due)`,
    delinquent: `Delinquent (${days})`,
    defaulted: "Defaulted",
    repaid: "Repaid",
  };
  return labels[servicing.status];
}

const owesPastDue = (servicing: Pick<WireServicing, "amountPastDue">) => parseUsd(servicing.amountPastDue || "0") > 0n;

/** "$812.40 past due", or null when nothing is: shown beside the status wherever it is. */
export function amountPastDueText(servicing: Pick<WireServicing, "amountPastDue">): string | null {
  return owesPastDue(servicing) ? `${usd(servicing.amountPastDue)} past due` : null;
}

/** A due date (unix seconds) as the day it fell on, the same in every time zone: "26 Dec 2026". */
export const dueDayText = (seconds: number) => new Date(seconds * 1000).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

/**
 * What the borrower reads on a late or delinquent loan: how much is past due since when (late fees owed are part of
 * it, named apart), and that paying it makes the
 * loan current again (the status is read from the schedule, so the cure needs nothing but the payment). Null when the
 * loan is not behind.
 */
export function cureText(servicing: WireServicing): string | null {
  if ((servicing.status !== "late" && servicing.status !== "delinquent") || !owesPastDue(servicing)) return null;
  const since = servicing.dueDate === null ? "" : ` since ${dueDayText(servicing.dueDate)}`;
  const fees = parseUsd(servicing.feesOwed || "0") > 0n ? `, late fees of ${usd(servicing.feesOwed)} included` : "";
  return `${usd(servicing.amountPastDue)} is past due${since}${fees}. Paying it makes the loan current again.`;
}
