import { displayUsd } from "#domain/money";
import { PAR_BPS, parPrice } from "#domain/orders";
import type { PayoffSplit } from "#domain/servicing";
import { bpsText } from "./bpsText";
import { parBreakdown } from "./parWords";

/** Seconds in the 30-day month the loans count in (domain/schedule's period). */
const MONTH_SECONDS = 30n * 86_400n;

/** A percentage typed in a form ("99", "98.5") as basis points; null when it is not a percentage from 0.01 to 1,000. */
export function percentToBps(text: string): number | null {
  const match = /^\s*(\d{1,4})(?:\.(\d{1,2}))?\s*%?\s*$/.exec(text);
  if (!match) return null;
  const bps = Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  return bps > 0 && bps <= 100_000 ? bps : null;
}

/** An order's expiry (unix seconds) as words that read the same in every time zone: "26 Dec 2026, 14:05 UTC". */
export function expiryText(expiry: bigint | number | string): string {
  const date = new Date(Number(expiry) * 1000);
  const day = date.toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
  const time = date.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", timeZone: "UTC" });
  return `${day}, ${time} UTC`;
}

/** Whole 30-day months in a number of seconds, rounded down: a matching offer's "at most N months left". */
export const monthsIn = (seconds: bigint) => seconds / MONTH_SECONDS;
export const secondsInMonths = (months: bigint | number) => BigInt(months) * MONTH_SECONDS;

/** The typed data's message as the wallet gets it: every uint as a decimal string (or already a bigint). */
type Message = Record<string, string | bigint | number>;
const big = (m: Message, key: string) => BigInt(m[key] ?? 0);

const NO_GAS = "it costs no gas";
const UNTIL_ACCEPTED = "the money stays in your wallet until a holder accepts";
/** uint256's largest value: an open upper bound of a matching offer's range. */
const MAX_UINT = (1n << 256n) - 1n;

/** What "par" means, said once where no dollar breakdown is at hand. */
const PAR_IS = "the principal still owed plus the interest accrued and unpaid";

/** "only while no installment is past due": the signed maxDaysPastDue, absent (0) on orders signed before it existed. */
export function lateLimitText(message: Message): string {
  const days = big(message, "maxDaysPastDue");
  return days === 0n ? "only while no installment is past due" : `only while no installment is more than ${days} ${days === 1n ? "day" : "days"} past due`;
}

/**
 * What the wallet is asked to sign, in words, read from the typed data itself (not from the form that asked for
 * it), so what the user reads is what they sign. `split` is what would settle the note now (principal and interest,
 * micro-dollars), to say what a percentage of par is in dollars; par is the dirty price, so the words say both parts.
 */
export function orderWords(primaryType: string, message: Message, split?: PayoffSplit | null): string {
  const until = `${lateLimitText(message)}, valid until ${expiryText(big(message, "expiry"))}`;
  const parBps = big(message, "parBps");
  const par = `${bpsText(parBps)} of par (${split ? `today ${parBreakdown(split, parBps)}` : PAR_IS})`;
  if (primaryType === "Listing") {
    const tokenId = big(message, "tokenId");
    if (parBps > 0n) return `You sign a listing: note #${tokenId} at ${par}, ${until}; ${NO_GAS}.`;
    return `You sign a listing: note #${tokenId} for ${displayUsd(big(message, "price"))}, while the note does not change (a repayment ends it), ${until}; ${NO_GAS}.`;
  }
  if (primaryType === "Offer") {
    const tokenId = big(message, "tokenId");
    if (parBps > 0n) return `You sign an offer: to buy note #${tokenId} at ${par}, paying at most ${displayUsd(big(message, "cap"))}, ${until}; ${NO_GAS}, and ${UNTIL_ACCEPTED}.`;
    return `You sign an offer: to buy note #${tokenId} for ${displayUsd(big(message, "price"))}, while the note does not change (a repayment ends it), ${until}; ${NO_GAS}, and ${UNTIL_ACCEPTED}.`;
  }
  if (primaryType === "MatchingOffer") {
    return `You sign an offer on any note that matches: ${bpsText(parBps)} of par (${PAR_IS}) for any active note ${matchingRanges(message)}, up to ${displayUsd(big(message, "budget"))} in all, ${until}; ${NO_GAS}, and ${UNTIL_ACCEPTED}.`;
  }
  return `You sign ${primaryType}.`;
}

/** "at 12%+ with at most 12 months left", with the outstanding range when one was set. */
export function matchingRanges(message: Message): string {
  const parts: string[] = [];
  const minRate = big(message, "minRateBps");
  const maxRate = big(message, "maxRateBps");
  if (maxRate < MAX_UINT && maxRate > 0n && maxRate < 1_000_000n) parts.push(`at ${bpsText(minRate)} to ${bpsText(maxRate)}`);
  else parts.push(minRate > 0n ? `at ${bpsText(minRate)}+` : "at any rate");
  const minTerm = big(message, "minTermLeft");
  const maxTerm = big(message, "maxTermLeft");
  if (maxTerm < MAX_UINT && maxTerm > 0n) parts.push(`with at most ${monthsText(monthsIn(maxTerm))} left`);
  // Under a month it only keeps out matured notes (the form's 1 second): "at least 0 months left" would say nothing.
  if (minTerm >= MONTH_SECONDS) parts.push(`with at least ${monthsText(monthsIn(minTerm))} left`);
  else if (minTerm > 0n) parts.push("(not yet matured)");
  const minOut = big(message, "minOutstanding");
  const maxOut = big(message, "maxOutstanding");
  const boundedMax = maxOut > 0n && maxOut < MAX_UINT;
  if (minOut > 0n && boundedMax) parts.push(`owing ${displayUsd(minOut)} to ${displayUsd(maxOut)}`);
  else if (minOut > 0n) parts.push(`owing at least ${displayUsd(minOut)}`);
  else if (boundedMax) parts.push(`owing at most ${displayUsd(maxOut)}`);
  return parts.join(" ");
}

const monthsText = (months: bigint) => `${months} ${months === 1n ? "month" : "months"}`;

/** The price an order names today: its fixed price, or its percentage of par (the dirty price), an offer's at most its cap. */
export function orderPriceToday(message: Message, split: PayoffSplit): bigint {
  const parBps = big(message, "parBps");
  if (parBps === 0n) return big(message, "price");
  const atPar = parPrice(split, parBps);
  const cap = big(message, "cap");
  return cap > 0n && cap < atPar ? cap : atPar;
}

export { PAR_BPS };
