/**
 * Money crosses the wire as a decimal string of USD with at most 6 decimals ("1250.5").
 * Inside, it is a bigint of micro-dollars (the stablecoin's smallest unit). Never a float.
 */
export const USD_DECIMALS = 6;
const UNIT = 10n ** BigInt(USD_DECIMALS);
const DECIMAL = /^(\d+)(?:\.(\d{1,6}))?$/;

export class MoneyFormatError extends Error {
  constructor(readonly input: unknown) {
    super(`Not a USD amount with at most ${USD_DECIMALS} decimals: ${String(input)}`);
    this.name = "MoneyFormatError";
  }
}

/** Parses "12.5" or 12.5 (requests may send numbers) into micro-dollars. Refuses negatives and excess precision. */
export function parseUsd(value: string | number): bigint {
  const text = typeof value === "number" ? numberToPlain(value) : value.trim();
  const match = DECIMAL.exec(text);
  if (!match) throw new MoneyFormatError(value);
  const fraction = (match[2] ?? "").padEnd(USD_DECIMALS, "0");
  return BigInt(match[1]) * UNIT + BigInt(fraction);
}

/** True when parseUsd would accept the value. */
export function isUsd(value: unknown): value is string | number {
  if (typeof value !== "string" && typeof value !== "number") return false;
  try {
    parseUsd(value);
    return true;
  } catch {
    return false;
  }
}

/** Micro-dollars to the canonical wire string: no trailing zeros, no exponent ("1250.5", "1000"). */
export function formatUsdAmount(micro: bigint): string {
  const negative = micro < 0n;
  const abs = negative ? -micro : micro;
  const whole = abs / UNIT;
  const fraction = (abs % UNIT).toString().padStart(USD_DECIMALS, "0").replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}

/** For display only (UI and stored notification texts): "$1,250.50". */
export function displayUsd(micro: bigint): string {
  const cents = (micro + 5_000n) / 10_000n; // round half up to cents
  const whole = cents / 100n;
  const rest = (cents % 100n).toString().padStart(2, "0");
  return `$${whole.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${rest}`;
}

/** What a person types may group thousands ("12,000", "$1,250.50"); only well-formed groups of three count. */
const TYPED_GROUPED = /^\$?\s*(\d{1,3}(?:,\d{3})+)(\.\d*)?$/;

/**
 * A form's amount as the wire's plain decimal string: "12,000" becomes "12000" and a leading "$" is dropped;
 * anything else comes back trimmed and unchanged, so the wire schema judges it with its own message.
 * The API itself never accepts separators ("1,2" could be a European decimal).
 */
export function typedUsd(text: string): string {
  const trimmed = text.trim();
  const grouped = TYPED_GROUPED.exec(trimmed);
  if (grouped) return grouped[1].replace(/,/g, "") + (grouped[2] ?? "");
  return trimmed.replace(/^\$\s*(?=\d)/, "");
}

/**
 * For lists whose amounts a reader adds up (repayments beside their total): cents when the amount is a whole
 * number of cents, else every significant decimal ("$705.583529"), so the parts shown sum to the total shown.
 */
export function displayUsdExact(micro: bigint): string {
  if (micro % 10_000n === 0n) return displayUsd(micro);
  const abs = micro < 0n ? -micro : micro;
  const whole = (abs / UNIT).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const fraction = (abs % UNIT).toString().padStart(USD_DECIMALS, "0").replace(/0+$/, "");
  return `${micro < 0n ? "-" : ""}$${whole}.${fraction}`;
}

function numberToPlain(value: number): string {
  if (!Number.isFinite(value) || value < 0) throw new MoneyFormatError(value);
  // toFixed(6) then trim: numbers from JSON bodies never need more than 6 decimals here.
  const fixed = value.toFixed(USD_DECIMALS);
  if (Number(fixed) !== value && Math.abs(Number(fixed) - value) > 1e-9) throw new MoneyFormatError(value);
  return fixed.replace(/\.?0+$/, "") || "0";
}
