import { z } from "zod";

/**
 * The reconciliation report's wire shape. Amounts are exact USD decimal strings (micro-dollars formatted once by
 * the API). A compared value is a string, "missing" when the source should hold it and does not, or null when the
 * source does not hold that field at all (the loans table keeps no repaid amount, for one), so an auditor can tell
 * "absent" from "not this source's business".
 */
const usd = z.string();
const value = z.string().nullable();

export const RECONCILIATION_MISSING = "missing";

/** The fields compared; each note field names what the contracts' views answer. */
export const RECONCILIATION_FIELDS = ["exists", "tokenId", "mintStatus", "principal", "repaid", "feesPaidThrough", "status", "owner", "holder", "collateral", "credits"] as const;
export type ReconciliationField = (typeof RECONCILIATION_FIELDS)[number];

export const wireReconciliationDifferenceSchema = z.object({
  /** The note the difference is about; null for an account's credits. */
  tokenId: z.string().nullable(),
  /** The account whose credits differ; null for a note's field. */
  account: z.string().nullable(),
  field: z.enum(RECONCILIATION_FIELDS),
  chain: value,
  mirror: value,
  database: value,
});
export type WireReconciliationDifference = z.infer<typeof wireReconciliationDifferenceSchema>;

export const TREASURY_CATEGORIES = ["funding", "principalLent", "creditsWithdrawn", "saleProceeds", "fees", "unexplained"] as const;
export type TreasuryCategory = (typeof TREASURY_CATEGORIES)[number];

/** One category of the treasury's stablecoin movements: what came in and went out, and in how many transfers. */
export const wireTreasuryLineSchema = z.object({
  category: z.enum(TREASURY_CATEGORIES),
  inflow: usd,
  outflow: usd,
  transfers: z.number(),
});

/** A stablecoin transfer into or out of the treasury that no contract event of its transaction explains. */
export const wireUnexplainedTransferSchema = z.object({
  txHash: z.string(),
  logIndex: z.number(),
  blockNumber: z.number(),
  from: z.string(),
  to: z.string(),
  amount: usd,
  direction: z.enum(["in", "out"]),
});

export const wireTreasuryProofSchema = z.object({
  address: z.string(),
  fromBlock: z.number(),
  openingBalance: usd,
  closingBalance: usd,
  inflows: usd,
  outflows: usd,
  lines: z.array(wireTreasuryLineSchema),
  /** closing − opening = inflows − outflows, to the micro-dollar. */
  balances: z.boolean(),
  unexplained: z.array(wireUnexplainedTransferSchema),
  /**
   * Repayments credited to the treasury (Repaid logs), its withdrawals, and creditsOf at the block: credited − withdrawn
   * = owed. `lateFees` is the part of `credited` that late fees paid (LateFeesPaid logs to the treasury): fees reach the
   * treasury's cash through its credit withdrawals, as repayments do.
   */
  credits: z.object({ credited: usd, lateFees: usd, withdrawn: usd, owed: usd, balances: z.boolean() }),
  /** Originations whose principal no treasury transfer in their transaction paid. */
  unfundedOriginations: z.array(z.object({ tokenId: z.string(), txHash: z.string(), principal: usd })),
});

export const wireReconciliationSchema = z.object({
  /** The one block every chain read of the report was made at. */
  blockNumber: z.number(),
  /** The mirror's cursor when it was read, in the same database snapshot as its rows. */
  mirrorBlock: z.number().nullable(),
  notesCompared: z.number(),
  differences: z.array(wireReconciliationDifferenceSchema),
  treasury: wireTreasuryProofSchema,
  /** No note difference, and the treasury balances with every movement explained. */
  clean: z.boolean(),
});
export type WireReconciliation = z.infer<typeof wireReconciliationSchema>;

/** The report's one-line verdict, the API's message and the page's heading. */
export function reconciliationVerdict(report: Pick<WireReconciliation, "blockNumber" | "clean" | "differences" | "treasury">): string {
  if (report.clean) return `Chain, mirror and database agree at block ${report.blockNumber}`;
  const unexplained = report.treasury.unexplained.length;
  const parts = [
    report.differences.length ? `${report.differences.length} difference${report.differences.length === 1 ? "" : "s"}` : null,
    unexplained ? `${unexplained} unexplained treasury transfer${unexplained === 1 ? "" : "s"}` : null,
    report.treasury.balances && report.treasury.credits.balances ? null : "the treasury does not balance",
    report.treasury.unfundedOriginations.length ? "originations the treasury did not fund" : null,
  ].filter(Boolean);
  return `Found at block ${report.blockNumber}: ${parts.join(", ")}`;
}
