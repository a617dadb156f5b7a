import { displayUsd, isUsd, parseUsd } from "#domain/money";

/** A wire amount (decimal USD string) for display: "$1,250.50"; anything else is shown as a dash. */
export function usd(amount: string | null | undefined): string {
  if (amount === null || amount === undefined || !isUsd(amount)) return "—";
  return displayUsd(parseUsd(amount));
}

export const percentText = (rate: number | null | undefined) => (rate === null || rate === undefined ? "—" : `${rate}%`);

export const dateText = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" }) : "—");

export const dateTimeText = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : "—");

export const purposeText = (purpose: string) => purpose.replace(/_/g, " ").replace(/^\w/, (c) => c.toUpperCase());
