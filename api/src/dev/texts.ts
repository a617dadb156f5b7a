/** What the dev faucet answers; each refusal says what to do next. */
export const FAUCET_ANSWERS = {
  sent: (to: string, eth: string, usd: string | null) => `Sent ${usd ? `${eth} ETH and ${usd} test dollars` : `${eth} ETH (no stablecoin deployed yet)`} to ${to}`,
  fundedRecently: "This wallet was funded recently. Please try again later.",
  clientLimit: "You have asked the faucet too often. Please try again later.",
  budgetSpent: "The faucet has paid out its budget for this hour. Please try again later.",
  empty: "The faucet's account has run dry; restart with `npm start`, which tops it up",
} as const;
