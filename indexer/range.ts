/**
 * The block span of one eth_getLogs call adapts to what the RPC allows: it halves when the node refuses a
 * range as too large or too rich in results, and doubles again after calls that went through.
 */
export interface RangeLimits {
  initial: number;
  min: number;
  max: number;
  /** Above this many logs in one answer the span stops growing: bigger answers only cost memory. */
  maxLogs: number;
}

export const DEFAULT_RANGE: RangeLimits = { initial: 2_000, min: 1, max: 100_000, maxLogs: 10_000 };

const RANGE_ERROR = /range|too many|more than|limit|exceed|too large|response size|query timeout|timed out|result set|block span/i;

/** True when an RPC error means "ask for fewer blocks", as the common providers word it. */
export function isRangeError(error: unknown): boolean {
  const text = errorText(error);
  return RANGE_ERROR.test(text);
}

/** Some providers name the span they would accept ("retry with the range [0x1, 0x2f]"). */
export function suggestedSpan(error: unknown): number | null {
  const match = /\[\s*(0x[0-9a-f]+)\s*,\s*(0x[0-9a-f]+)\s*\]/i.exec(errorText(error));
  if (!match) return null;
  const span = Number(BigInt(match[2]) - BigInt(match[1])) + 1;
  return span > 0 ? span : null;
}

function errorText(error: unknown): string {
  if (!error || typeof error !== "object") return String(error);
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && typeof current === "object" && depth < 6; depth++) {
    const e = current as { message?: unknown; details?: unknown; shortMessage?: unknown; cause?: unknown };
    for (const field of [e.shortMessage, e.message, e.details]) if (typeof field === "string") parts.push(field);
    current = e.cause;
  }
  return parts.join(" | ");
}

export class AdaptiveRange {
  span: number;
  constructor(readonly limits: RangeLimits = DEFAULT_RANGE) {
    this.span = limits.initial;
  }

  /** After a refused call: returns false when the span cannot shrink further (the error is not about size). */
  shrink(error: unknown): boolean {
    if (this.span <= this.limits.min) return false;
    const suggested = suggestedSpan(error);
    const next = suggested && suggested < this.span ? suggested : Math.floor(this.span / 2);
    this.span = Math.max(this.limits.min, next);
    return true;
  }

  grow(logCount: number): void {
    if (logCount >= this.limits.maxLogs) return;
    this.span = Math.min(this.limits.max, this.span * 2);
  }
}
