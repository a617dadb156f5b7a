/** Deployment parameters shared by the deploy library, the test fixture and the gas bench. */
export const DEFAULTS = {
  /** Time after maturity before an unpaid loan may be marked defaulted. */
  gracePeriodSeconds: 30n * 24n * 60n * 60n,
  /** Time after a due date before an unpaid installment owes its late fee (the contract allows at most 60 days). */
  lateFeeGracePeriodSeconds: 15 * 24 * 60 * 60,
  /** The late fee, in basis points of the overdue installment (the contract allows at most 1,000). */
  lateFeeBps: 500,
  /** Days past the oldest unpaid due date before a loan may be marked defaulted (the contract allows 30 to 365). */
  defaultAfterDays: 90,
  /** Platform fee on every sale (the contract caps it at 500). */
  feeBps: 100,
  /** How much a refinance must lower a loan's yearly rate, in basis points, unless it lowers the monthly payment. */
  minRateImprovementBps: 50n,
  /** Test dollar faucet: $1,000 per call, once a day per address. */
  faucetAmount: 1_000_000_000n,
  faucetCooldownSeconds: 24n * 60n * 60n,
  /** What the deploy mints to the treasury on the local chain: $10 million. */
  treasuryFunding: 10_000_000_000_000n,
  /** What the deploy mints to the dev faucet's own account on the local chain: $100 million (10,000 drips). */
  faucetFunding: 100_000_000_000_000n,
  /** The local chain's demo NFT collection: one faucet piece a day per address, three pieces for the demo borrower. */
  demoCollectionFaucetCooldownSeconds: 24n * 60n * 60n,
  demoBorrowerPieces: 3,
} as const;
