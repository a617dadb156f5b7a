import { z } from "zod";
import { SERVICING_STATUSES } from "../statuses";

/**
 * Where a loan with a note stands against its schedule, on every loan and note record: computed from the chain's
 * terms and repayments at `asOf` (the chain's clock, unix seconds), money as decimal strings in USD.
 * `principalNow + interestNow` (late fees owed counted as interest) is what would settle the note at `asOf`; a par price is parBps of `principalNow`
 * plus `interestNow` (domain/orders parPrice).
 */
export const wireServicingSchema = z.object({
  status: z.enum(SERVICING_STATUSES),
  daysPastDue: z.number(),
  /** Installments fallen due and unpaid plus the late fees owed: what paying makes the loan current (amountDueNow). */
  amountPastDue: z.string(),
  /** The late fees owed now, and how many installments owe one. */
  feesOwed: z.string(),
  lateFeeCount: z.number(),
  /** The oldest unpaid installment's due date (unix seconds); null once repaid. */
  dueDate: z.number().nullable(),
  principalNow: z.string(),
  interestNow: z.string(),
  asOf: z.number(),
});
export type WireServicing = z.infer<typeof wireServicingSchema>;
