import { API_BASE } from "./apiBase";
import { displayUsd, displayUsdExact, parseUsd } from "#domain/money";

/** First 6 and last 4 characters. */
export function shortAddress(address: string | null | undefined): string {
  if (!address) return "";
  return address.length > 10 ? `${address.slice(0, 6)}...${address.slice(-4)}` : address;
}

export function initials(firstName?: string | null, lastName?: string | null): string {
  const text = `${firstName?.trim()?.[0] ?? ""}${lastName?.trim()?.[0] ?? ""}`.toUpperCase();
  return text || "U";
}

/** Pictures may be a path or a full URL; relative ones are served by the API. */
export function assetUrl(path: string | null | undefined): string | null {
  if (!path) return null;
  if (/^(https?:|data:|blob:)/.test(path)) return path;
  if (path.startsWith(API_BASE + "/") || path.startsWith("/uploads")) return path;
  return `${API_BASE}${path.startsWith("/") ? "" : "/"}${path}`;
}

export function todayText(): string {
  return new Date().toLocaleDateString(undefined, { year: "numeric", month: "long", day: "numeric" });
}

/** A decimal USD string from the API, shown as money; never a float on the way. */
export function usd(value: string | null | undefined): string {
  if (value === null || value === undefined || value === "") return "—";
  try {
    return displayUsd(parseUsd(value));
  } catch {
    return value;
  }
}

/** For amounts read beside their parts or their sum (a note's repayments and its total repaid): every decimal there is. */
export function usdExact(value: string | null | undefined): string {
  if (value === null || value === undefined || value === "") return "—";
  try {
    return displayUsdExact(parseUsd(value));
  } catch {
    return value;
  }
}

// One formatter for every call: toLocaleString with options builds a new Intl.NumberFormat each time,
// which showed in the marketplace's render profile.
const percentFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });
export const percentText = (rate: number) => `${percentFormat.format(rate)}%`;

/** A status word as the borrower's pages show it: "Active". */
export const statusText = (status: string) => status.charAt(0).toUpperCase() + status.slice(1);

export const purposeText = (purpose: string) => purpose.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());

export const dateText = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : "—");

/** "1 message", "2 messages": a count with its noun in the right number. */
export const countText = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
