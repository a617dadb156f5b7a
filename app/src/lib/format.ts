import { API_BASE } from "./apiBase";
import { displayUsd, parseUsd } from "#domain/money";

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

// One formatter for every call: toLocaleString with options builds a new Intl.NumberFormat each time,
// which showed in the marketplace's render profile.
const percentFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });
export const percentText = (rate: number) => `${percentFormat.format(rate)}%`;

/** A status word as the borrower's pages show it: "Active". */
export const statusText = (status: string) => status.charAt(0).toUpperCase() + status.slice(1);

export const purposeText = (purpose: string) => purpose.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());

/** A wire amount as an input's starting value, in cents and without separators: "7685.44" for "7685.435118". */
export function usdInput(value: string | null | undefined): string {
  if (value === null || value === undefined || value === "") return "";
  try {
    return displayUsd(parseUsd(value)).replace(/[$,]/g, "");
  } catch {
    return value;
  }
}

const ETH_DECIMALS = 4;
const ETH_STEP = 10n ** BigInt(18 - ETH_DECIMALS);

/** Wei as ETH rounded half up to 4 decimals, trailing zeros dropped: "10,000.9992 ETH"; dust reads "< 0.0001 ETH". */
export function ethText(wei: bigint): string {
  const negative = wei < 0n;
  const abs = negative ? -wei : wei;
  const steps = (abs + ETH_STEP / 2n) / ETH_STEP;
  if (steps === 0n && abs > 0n) return `${negative ? "> -" : "< "}0.0001 ETH`;
  const whole = (steps / 10n ** BigInt(ETH_DECIMALS)).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const fraction = (steps % 10n ** BigInt(ETH_DECIMALS)).toString().padStart(ETH_DECIMALS, "0").replace(/0+$/, "");
  return `${negative && steps > 0n ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""} ETH`;
}

/** Basis points as the percent a person reads: 850 → "8.5%". */
export const bpsPercentText = (bps: number | bigint) => percentText(Number(bps) / 100);

/** Unix seconds from the chain as a date and time; 0 (none) reads "—". */
export function unixTimeText(seconds: number | bigint | null | undefined): string {
  if (seconds === null || seconds === undefined) return "—";
  const n = Number(seconds);
  if (n <= 0) return "—";
  const date = new Date(n * 1000);
  return Number.isNaN(date.getTime()) ? String(seconds) : date.toLocaleString();
}

/**
 * The interest line of a loan: while it runs (or waits), the schedule's total, labelled "scheduled"; once repaid,
 * the interest actually paid (total repaid − principal), which a payoff makes smaller than the schedule's.
 */
export function interestLine(loan: { status: string; principal: string | null; amount: string; totalRepaid: string; totalInterest: string }): { label: string; value: string } {
  if (loan.status === "completed") {
    try {
      const paid = parseUsd(loan.totalRepaid) - parseUsd(loan.principal ?? loan.amount);
      return { label: "Interest paid", value: displayUsd(paid > 0n ? paid : 0n) };
    } catch {
      return { label: "Interest paid", value: "—" };
    }
  }
  return { label: "Total interest (scheduled)", value: usd(loan.totalInterest) };
}

export const dateText = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : "—");

/** "1 message", "2 messages": a count with its noun in the right number. */
export const countText = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
