import { z } from "zod";

/** What a person reads when the statement's period is wrong; the app's period picker shows the same words. */
export const STATEMENT_MESSAGES = {
  date: "Dates must be real calendar dates written YYYY-MM-DD (from and to)",
  order: "The period's start (from) must be on or before its end (to)",
  span: "A statement covers at most 10 years; choose a shorter period",
} as const;

const MAX_SPAN_DAYS = 3_660;
const DAY_MS = 86_400_000;

/** Milliseconds of a YYYY-MM-DD day's start in UTC, or NaN when it is not a real calendar day (2025-02-30). */
export function dayStart(day: string): number {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return Number.NaN;
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== day ? Number.NaN : ms;
}

const day = z
  .string({ error: STATEMENT_MESSAGES.date })
  .trim()
  .refine((text) => !Number.isNaN(dayStart(text)), STATEMENT_MESSAGES.date);

/**
 * GET /portfolio/statement's query: a period of whole UTC days, both ends included. The API answers the first
 * failed rule's message, so a person sees why, not just that, the period was refused.
 */
export const statementPeriodQuery = z
  .object({ from: day, to: day })
  .refine((p) => dayStart(p.from) <= dayStart(p.to), { message: STATEMENT_MESSAGES.order, path: ["to"] })
  .refine((p) => dayStart(p.to) - dayStart(p.from) <= MAX_SPAN_DAYS * DAY_MS, { message: STATEMENT_MESSAGES.span, path: ["to"] });
export type StatementPeriod = z.infer<typeof statementPeriodQuery>;

/** The period as unix seconds: [start of `from`, start of the day after `to`). */
export function periodBounds(period: StatementPeriod): { start: bigint; end: bigint } {
  return { start: BigInt(dayStart(period.from) / 1000), end: BigInt((dayStart(period.to) + DAY_MS) / 1000) };
}
