import { decodeErrorResult, isHex, toFunctionSelector, type Abi, type Hex } from "viem";
import { collateralEscrowAbi, loanNoteAbi, noteMarketplaceAbi, noteVaultAbi, testDollarAbi } from "./abis";
import { COLLATERAL_MESSAGES } from "./schemas/loans";

type AbiError = Extract<Abi[number], { type: "error" }>;
type ErrorsOf<abi extends readonly unknown[]> = Extract<abi[number], { type: "error" }>;
/** Every custom error the five contracts can revert with, their own and those of the OpenZeppelin parts they build on. */
export type ContractErrorName = ErrorsOf<typeof loanNoteAbi | typeof collateralEscrowAbi | typeof noteMarketplaceAbi | typeof noteVaultAbi | typeof testDollarAbi>["name"];

const INVALID_SIGNATURE = "The signature is not valid. Try again and sign the request in your wallet.";

/**
 * What each custom error means for the person who sent the transaction. Typed by the ABIs' error names, so a new
 * contract error does not compile until it has its sentence here (and domain/contractErrors.test.ts checks the ABIs).
 */
export const CONTRACT_ERROR_SENTENCES: Record<ContractErrorName, string> = {
  // LoanNote
  LoanAlreadyExists: "A note for this loan was already minted; a loan is minted only once.",
  LoanNotFound: "There is no loan note with this number on the chain.",
  LoanNotActive: "This loan is not active any more: it was already repaid or marked defaulted.",
  InvalidTerms: "The loan terms are out of range: the principal, rate or term is not allowed.",
  ZeroAmount: "The amount must be more than zero.",
  NothingToWithdraw: "There are no repayments waiting for you to withdraw.",
  DefaultTooEarly: "This loan cannot be marked defaulted yet: its oldest unpaid installment is not far enough past due, nor has its grace period after maturity ended.",
  GracePeriodTooLong: "The grace period is longer than the contract allows.",
  LateFeeGracePeriodTooLong: "The late fee's grace period is longer than the contract allows.",
  LateFeeTooHigh: "The late fee is above the contract's cap.",
  DefaultAfterDaysOutOfRange: "The days past due before a default are outside the range the contract allows.",
  PaymentBelowLateFee: "The payment is less than the late fee owed, which is paid first. Pay at least the late fee.",
  InvalidTreasury: "That address cannot be the treasury.",
  NotEscrow: "Only the collateral escrow can settle a loan by the claim of its NFT.",
  // CollateralEscrow: NFT collateral
  CollectionNotAllowed: "This NFT collection is not accepted as collateral.",
  InvalidCollection: "That address cannot be accepted as an NFT collection.",
  TooManyCollections: "No more NFT collections can be added to the list of accepted collateral.",
  CollateralNotHeld: `${COLLATERAL_MESSAGES.borrowerNoLongerHolds}, so the loan cannot start.`,
  CollateralNotApproved: "The borrower has not allowed the platform to hold the pledged NFT in escrow, so the loan cannot start.",
  CollateralTransferFailed: "The NFT's collection refused to move the pledged NFT into escrow, so the loan cannot start.",
  CollateralNotReceived: "The pledged NFT did not arrive in escrow, so the loan cannot start.",
  NoCollateral: "This loan has no NFT in escrow to claim.",
  CollateralNotClaimable: "The NFT stays in escrow while the loan is active; it can be claimed only after a default.",
  NotEntitled: "Only the note's holder (after a default) or the borrower (after repayment) can take this NFT.",
  InvalidCollateralRecipient: "Send the NFT to a wallet address, not to the note contract, the escrow or the zero address.",
  NotLoanNote: "Only the note contract can lock or release an NFT in escrow.",
  InvalidLoanNumber: "That loan number is out of the range of originated loans.",
  NotRefinancer: "Only the marketplace can refinance a loan.",
  NotBorrower: "Only the loan's borrower can refinance it.",
  // NoteMarketplace
  NotTokenOwner: "Only the wallet that owns this note can list it.",
  NotSeller: "Only the wallet that listed this note can change or cancel its listing.",
  NotListed: "This note is not listed for sale any more. Reload to see the current offers.",
  ListingStale: "This listing changed after you opened it: the price or the note moved. Reload to see the current offer.",
  MarketplaceNotApproved: "The marketplace is not allowed to move this note: its owner must approve the marketplace first.",
  InvalidPrice: "The price must be more than zero and within the marketplace's limit.",
  PriceMismatch: "The price of this listing changed after you opened it. Reload to see the current offer.",
  FeeTooHigh: "The platform fee is above the marketplace's cap.",
  ZeroAddress: "An address is missing: the zero address is not allowed here.",
  // NoteMarketplace: orders signed off-chain (NoteOrders)
  OrderExpired: "This order has expired. Reload to see the current offers.",
  OrderUnavailable: "This order was already filled or cancelled. Reload to see the current offers.",
  InvalidSignature: "This order's signature is not valid, so it cannot be filled.",
  OrderStale: "The note changed after this order was signed: it moved, or a payment or default changed it. Reload to see the current offer.",
  NoteNotMatching: "This note's terms are not among those the offer asks for.",
  BudgetExceeded: "This offer has not enough budget left for that price.",
  NotNoteHolder: "Only the wallet that holds this note can sell it or accept an offer for it.",
  PriceAboveMax: "The price is now above the most you agreed to pay. Reload to see the current price.",
  PriceBelowMin: "The price is now below the least you agreed to accept. Reload to see the current offer.",
  NoteLate: "The note is past due: this order fills only while its borrower is no later than its signer accepted. Reload to see where the loan stands.",
  // NoteMarketplace: refinance offers (NoteRefinancing)
  MinRateImprovementTooHigh: "The rate improvement a refinance must bring is above the marketplace's cap.",
  PrincipalAboveCap: "That principal is more than this refinance offer lends.",
  TermsNotBetter: "These terms lower neither your rate by the minimum nor your monthly payment.",
  TermShortened: "This refinance would end your loan earlier than it ends now: allow a shorter term to accept it.",
  NetBelowMin: "Your loan's payoff changed since you reviewed this refinance: you would receive less or pay more. Reload to see the new amounts.",
  SafeCastOverflowedUintDowncast: "A number in this order is too large for its field.",
  SafeCastOverflowedUintToInt: "An amount in this order is too large.",
  // NoteVault
  UnsupportedToken: "The vault only accepts LoanMint notes.",
  NotDepositor: "Only the wallet that deposited this note in the vault can withdraw it.",
  InvalidRecipient: "Withdraw the note to a wallet address, not to the vault or the zero address.",
  InvalidDepositor: "A note can only enter the vault from the wallet that holds it.",
  // TestDollar
  FaucetCooldown: "The faucet paid this wallet recently. Try again when its cooldown has passed.",
  FaucetDisabled: "The faucet is switched off.",
  // OpenZeppelin: ERC-20 and ERC-2612 permits
  ERC20InsufficientBalance: "Your wallet does not hold enough USD for this payment.",
  ERC20InsufficientAllowance: "The contract is not allowed to take that much USD from your wallet. Sign the permit for the full amount and try again.",
  ERC20InvalidApprover: "That wallet cannot approve spending of USD.",
  ERC20InvalidReceiver: "USD cannot be sent to that address.",
  ERC20InvalidSender: "USD cannot be sent from that address.",
  ERC20InvalidSpender: "That address cannot be allowed to spend USD.",
  ERC2612ExpiredSignature: "Your signed permit expired before the transaction was mined. Try again and sign a new one.",
  ERC2612InvalidSigner: "The permit was signed by another wallet than the one paying. Sign it with the paying wallet.",
  InvalidAccountNonce: "This permit was already used or is out of date. Try again and sign a new one.",
  ECDSAInvalidSignature: INVALID_SIGNATURE,
  ECDSAInvalidSignatureLength: INVALID_SIGNATURE,
  ECDSAInvalidSignatureS: INVALID_SIGNATURE,
  InvalidShortString: "A text value is too long for the contract.",
  StringTooLong: "A text value is too long for the contract.",
  // OpenZeppelin: ERC-721
  ERC721NonexistentToken: "This note does not exist: it was never minted, or it was burned when its loan was repaid.",
  ERC721IncorrectOwner: "This note is not owned by the wallet that tried to move it.",
  ERC721InsufficientApproval: "This wallet is not allowed to move this note: only its owner, or whom the owner approved, can.",
  ERC721InvalidApprover: "This wallet cannot approve moves of this note.",
  ERC721InvalidOperator: "That address cannot be allowed to move notes.",
  ERC721InvalidOwner: "That address cannot own notes.",
  ERC721InvalidReceiver: "That address cannot receive notes: send the note to a wallet, or to a contract that accepts notes.",
  ERC721InvalidSender: "The note cannot be sent from that address.",
  // OpenZeppelin: access control, pausing, reentrancy, safe transfers
  AccessControlUnauthorizedAccount: "Your wallet is not allowed to do this on the contract.",
  AccessControlBadConfirmation: "Only the account itself can give up its role.",
  EnforcedPause: "The contract is paused for maintenance. Please try again later.",
  ExpectedPause: "This can only be done while the contract is paused.",
  ReentrancyGuardReentrantCall: "The contract refused a call made from inside another call to it.",
  SafeERC20FailedOperation: "The USD transfer failed. Check your balance and try again.",
};

/** Said when something reverted but its reason is not one of the contracts' errors (or the wallet dropped it). */
export const UNKNOWN_REVERT_SENTENCE = "The contract refused the transaction.";

/** The errors of all five ABIs in one list: a call to one contract may revert with another's error (a marketplace buy with the stablecoin's, a secured origination with the escrow's). */
const CONTRACT_ABIS: readonly Abi[] = [loanNoteAbi, collateralEscrowAbi, noteMarketplaceAbi, noteVaultAbi, testDollarAbi];
export const CONTRACT_ERRORS_ABI = CONTRACT_ABIS.flatMap((abi) => abi.filter((item): item is AbiError => item.type === "error"));

// The errors carry only plain types (no tuples), so the signature is the name and the input types.
const NAME_BY_SELECTOR = new Map(CONTRACT_ERRORS_ABI.map((item) => [toFunctionSelector(`${item.name}(${item.inputs.map((input) => input.type).join(",")})`), item.name]));

export interface DecodedRevert {
  /** The custom error's name (e.g. ListingStale), or null when the reason could not be read. */
  name: string | null;
  sentence: string;
}

function isContractError(name: string): name is ContractErrorName {
  return Object.hasOwn(CONTRACT_ERROR_SENTENCES, name);
}

/** The reason in a revert's return data: a custom error by its selector, or a plain `require` message. */
export function decodeRevertData(data: Hex): DecodedRevert {
  try {
    const { errorName, args } = decodeErrorResult({ abi: CONTRACT_ERRORS_ABI, data });
    if (errorName === "Error" && typeof args?.[0] === "string") return { name: "Error", sentence: args[0] };
    if (isContractError(errorName)) return { name: errorName, sentence: CONTRACT_ERROR_SENTENCES[errorName] };
  } catch {
    // Data too short for the error's arguments, or an unknown selector: fall back to the selector alone.
  }
  const name = NAME_BY_SELECTOR.get(data.slice(0, 10).toLowerCase() as Hex) ?? null;
  return name && isContractError(name) ? { name, sentence: CONTRACT_ERROR_SENTENCES[name] } : { name: null, sentence: UNKNOWN_REVERT_SENTENCE };
}

interface ErrorLike {
  name?: unknown;
  message?: unknown;
  data?: unknown;
  raw?: unknown;
  code?: unknown;
  cause?: unknown;
  error?: unknown;
}

/** The errors one failure is made of: viem wraps the node's answer in layers (cause), wallets nest theirs (error, data). */
function layers(error: unknown): ErrorLike[] {
  const found: ErrorLike[] = [];
  const queue = [error];
  while (queue.length > 0 && found.length < 20) {
    const e = queue.shift();
    if (!e || typeof e !== "object" || found.includes(e as ErrorLike)) continue;
    const layer = e as ErrorLike;
    found.push(layer);
    queue.push(layer.cause, layer.error, typeof layer.data === "object" ? layer.data : undefined);
  }
  return found;
}

/** The revert data in a layer: viem's decoded ContractFunctionRevertedError, its raw data, or a node's or wallet's `data`. */
function revertIn(layer: ErrorLike): DecodedRevert | null {
  const data = layer.data as { errorName?: unknown } | undefined;
  if (typeof data?.errorName === "string" && isContractError(data.errorName)) return { name: data.errorName, sentence: CONTRACT_ERROR_SENTENCES[data.errorName] };
  for (const candidate of [layer.raw, layer.data]) if (typeof candidate === "string" && isHex(candidate) && candidate.length >= 10) return decodeRevertData(candidate);
  // Some nodes and wallets give only the message, e.g. anvil's "execution reverted: custom error 0x97536843: …".
  const selector = typeof layer.message === "string" ? /custom error (0x[0-9a-fA-F]{8})/.exec(layer.message)?.[1] : undefined;
  return selector ? decodeRevertData(selector as Hex) : null;
}

function looksReverted(layer: ErrorLike): boolean {
  return layer.code === 3 || /revert/i.test(String(layer.name ?? "")) || /execution reverted/i.test(String(layer.message ?? ""));
}

/**
 * Why a contract refused a call or transaction, as a sentence for the person who sent it, found anywhere in the
 * error viem, wagmi or a wallet threw; null when the failure was no revert (a rejected signature, a network error).
 */
export function decodeContractError(error: unknown): DecodedRevert | null {
  const all = layers(error);
  for (const layer of all) {
    const decoded = revertIn(layer);
    if (decoded) return decoded;
  }
  return all.some(looksReverted) ? { name: null, sentence: UNKNOWN_REVERT_SENTENCE } : null;
}
