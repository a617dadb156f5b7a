import { displayUsd, parseUsd } from "../../../../../domain/money";

/** A decimal USD string from the API, shown as money; never a float on the way. */
export function usd(value: string | null | undefined): string {
  if (value === null || value === undefined || value === "") return "—";
  try {
    return displayUsd(parseUsd(value));
  } catch {
    return value;
  }
}

export const percentText = (rate: number) => `${rate.toLocaleString(undefined, { maximumFractionDigits: 2 })}%`;

export const purposeText = (purpose: string) => purpose.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());

export const dateText = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : "—");
