import { displayUsd } from "#domain/money";
import { LOAN_MESSAGES } from "#domain/schemas/loans";
import { shortAddress } from "#domain/shortAddress";

// Approval, rejection, funding, listing, completion and default texts are the shared ones (api/src/notifications/texts.ts).

/** Answers and stored notification texts of the loan lifecycle. */
export const LOAN_ANSWERS = {
  submitted: "Loan request submitted successfully",
  demoCreated: "Demo loan request created!",
  kycRequired: "KYC verification required: your KYC must be approved before you can request a loan",
  walletRequired: "Please connect and verify your wallet before requesting a loan",
  notFound: "Loan not found",
  approved: "Loan approved successfully!",
  approvedMintFailed: "Loan approved, but minting its NFT failed; retry minting once the chain is reachable",
  rejected: "Loan rejected",
  notPending: "Only pending loans can be approved or rejected",
  borrowerNoWallet: "The borrower has no verified wallet to receive the funds",
  walletMismatch: "The wallet address must be the borrower's verified wallet",
  fundingAboveAmount: LOAN_MESSAGES.fundingAboveAmount,
  invalidTerms: "These terms cannot be originated on-chain",
  retryStarted: "NFT minting retried",
  alreadyMinted: "This loan's NFT is already minted",
  mintInProgress: "Minting of this loan's NFT is in progress",
  notApproved: "Only approved loans can be minted",
  listingRetried: "Listing retried",
  listingNotNeeded: "This loan's note is not waiting for a listing",
  noDemoBorrower: "No demo borrower with approved KYC and a verified wallet exists; seed the demo accounts first",
  notRepayable: "Only an active or defaulted loan with a minted note can be repaid",
  installmentRange: (n: number) => `Installment number must be between 1 and ${n}`,
  installmentPaid: (k: number) => `Installment ${k} is already paid`,
  belowLateFee: (fee: string) => `A payment pays the late fees owed first: pay at least the first one, $${fee}`,
  repaymentReady: "Sign the permit and send the repayment from your wallet",
  defaulted: "Loan marked as defaulted",
  notDefaultable: "Only an active loan with a minted note can be marked defaulted",
  defaultTooEarly: (at: string) => `This loan can be marked defaulted from ${at}`,
} as const;

export const NOTIFY = {
  loanRequest: (amount: bigint, who: string) => ({ title: "New loan request", message: `New loan request: ${displayUsd(amount)} from ${who}` }),
  mintFailed: (loanNumber: bigint, reason: string) => ({ title: "Minting failed", message: `Minting note #${loanNumber} failed: ${reason}` }),
  listingFailed: (loanNumber: bigint, reason: string) => ({ title: "Listing failed", message: `Listing note #${loanNumber} failed: ${reason}` }),
  treasuryLow: (needed: bigint, balance: bigint, allowance: bigint) => ({
    title: "Treasury cannot fund the next approval",
    message: `The treasury cannot fund the next approval of ${displayUsd(needed)}: balance ${displayUsd(balance)}, allowance ${displayUsd(allowance)}.`,
  }),
} as const;

/** The timeline's notes, stored texts like the notifications': amounts formatted by the server ("$12,000.00", not "12000 USD"). */
export const TIMELINE_NOTES = {
  funding: (principal: bigint, wallet: string) => `Funding ${displayUsd(principal)} to ${wallet}`,
  listedAtPar: (price: bigint) => `Listed at 100% of par (${displayUsd(price)} today) by the treasury's signature`,
  listed: (price: bigint) => `Listed for ${displayUsd(price)}`,
  /** The escrow's moves, from the chain mirror; `piece` is "LoanMint Demo Art #2" or "NFT #2 (0x5fbd…0aa3)". */
  collateralLocked: (piece: string) => `${piece} moved from the borrower's wallet into the loan note's escrow`,
  collateralReturnFailed: (piece: string) => `The final payment was made, but the collection refused to return ${piece}; the borrower can claim it back`,
  collateralReturned: (piece: string, to: string | null) => `${piece} returned${to ? ` to ${shortAddress(to)}` : " to the borrower"}`,
  collateralClaimed: (piece: string, to: string | null) => `${piece} claimed by the note's holder${to ? `, sent to ${shortAddress(to)}` : ""}`,
  collateralMoved: (piece: string) => `${piece} stayed in escrow and now secures the loan this refinance opened`,
  collateralCarried: (piece: string) => `${piece} stayed in escrow, moved from the refinanced loan to this one`,
} as const;

/** Why reconciling with the chain failed a mint or a listing (start-up, after a crash, and the loan job's passes). */
export const RECONCILED = {
  /** The timeline's note for a listing settled by reconciliation. */
  note: "Reconciled with the chain",
  originationMissing: "Reconciled with the chain: the origination never happened",
  noteMissing: "Reconciled with the chain: the note does not exist",
  listingMissing: "Reconciled with the chain: the listing never happened",
} as const;
