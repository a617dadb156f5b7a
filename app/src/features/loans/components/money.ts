import { displayUsd, parseUsd } from "#domain/money";

/** A wire amount (decimal USD string) as the UI shows it. */
export const usd = (value: string | null | undefined) => (value == null || value === "" ? "—" : displayUsd(parseUsd(value)));

export const dateText = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleDateString() : "—");

export const purposeText = (purpose: string) => purpose.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
