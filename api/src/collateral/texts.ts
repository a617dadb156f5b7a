/** The words shown with the wallet calls of a pledged NFT; the refusals are domain/schemas/loans.ts's COLLATERAL_MESSAGES. */
export const COLLATERAL_TEXTS = {
  /** A piece as people read it: its own name, else its collection's and id. */
  label: (piece: { name: string | null; collectionName: string | null; tokenId: bigint | string }) => piece.name ?? `${piece.collectionName ?? "NFT"} #${piece.tokenId}`,
  approveEscrow: (label: string) => `Let LoanMint's escrow take ${label} when your loan is approved. It stays in your wallet until then.`,
  claimAfterDefault: (label: string, to: string) => `Take ${label} out of escrow to ${to}. The defaulted note is settled and burned.`,
  claimReturn: (label: string, to: string) => `Take ${label} back out of escrow to ${to}.`,
  appraised: (usd: string) => `Appraised the pledged NFT at ${usd}`,
  /** Answers of the collateral routes. */
  claimReady: "Send the claim from your wallet",
  appraisalSaved: "Appraisal saved",
} as const;
