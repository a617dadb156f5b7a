import { displayUsd, parseUsd } from "#domain/money";
import type { ListingLapseReason } from "#domain/statuses";
import { listingLapseText } from "#domain/listingLapse";
import type { NotificationContent } from "./notifier";
import { shortAddress } from "#domain/shortAddress";

/**
 * The stored notification texts, amounts formatted as USD by the server. Amounts arrive as wire strings (micro-dollar precision).
 */
const usd = (amount: string | bigint) => displayUsd(typeof amount === "bigint" ? amount : parseUsd(amount));
const nftLink = (tokenId: string) => `/nft/${tokenId}`;
const loanLink = (loanId?: string) => (loanId ? `/loans/${loanId}` : "/loans/my-loans");

/** A pledged piece as the collateral notices name it: its collection's name and its id. */
export interface PledgedPiece {
  /** The note (the loan number) it secures. */
  tokenId: string;
  collection: string;
  collateralId: string;
  /** The collection's name from the API's metadata cache; without one the notice names its short address. */
  collectionName?: string | null;
  /** The off-chain loan, when one follows the note. */
  loanId?: string;
}
/** "LoanMint Demo Art #2" by the collection's name, else "NFT #2 (0x5fbd…0aa3)"; the notices' and the timeline's name of a piece. */
export const pieceName = (p: Pick<PledgedPiece, "collection" | "collateralId" | "collectionName">) =>
  p.collectionName?.trim() ? `${p.collectionName.trim()} #${p.collateralId}` : `NFT #${p.collateralId} (${shortAddress(p.collection)})`;

/** A due date as reminders write it, in UTC (the schedule's days are UTC days): "Jan 6, 2027". */
export const reminderDate = (unixSeconds: bigint | number) => new Date(Number(unixSeconds) * 1000).toLocaleDateString("en-US", { timeZone: "UTC", month: "short", day: "numeric", year: "numeric" });

/** The loan a servicing reminder is about: its note's token id and, for the borrower's link, the loan's id. */
export interface RemindedLoan {
  tokenId: string;
  loanId: string;
}

/**
 * Servicing reminders (api/src/jobs/reminders.ts): to the borrower before and on due dates, when a late fee applies,
 * on cure and before a default becomes possible; to the note's holder when it goes late or is cured. All of them one
 * type, which a user mutes. A default is told by the loan's status notice (loanDefaulted below), to both.
 */
export const REMINDER_TEXTS = {
  dueSoon: (loan: RemindedLoan, installment: number, amount: bigint, dueDate: bigint): NotificationContent => ({
    type: "servicing_reminder",
    title: "Installment due soon",
    message: `Installment ${installment} of loan #${loan.tokenId}, ${usd(amount)}, is due on ${reminderDate(dueDate)}.`,
    link: loanLink(loan.loanId),
  }),
  missed: (loan: RemindedLoan, installment: number, amountPastDue: bigint, dueDate: bigint): NotificationContent => ({
    type: "servicing_reminder",
    title: "Payment missed",
    message: `Installment ${installment} of loan #${loan.tokenId} was due on ${reminderDate(dueDate)} and is unpaid: ${usd(amountPastDue)} is past due.`,
    link: loanLink(loan.loanId),
  }),
  lateFee: (loan: RemindedLoan, installment: number, fees: bigint, amountPastDue: bigint): NotificationContent => ({
    type: "servicing_reminder",
    title: "Late fee charged",
    message: `Installment ${installment} of loan #${loan.tokenId} is unpaid past its late-fee grace period: late fees of ${usd(fees)} apply, and ${usd(amountPastDue)} is past due with them.`,
    link: loanLink(loan.loanId),
  }),
  cured: (loan: RemindedLoan): NotificationContent => ({
    type: "servicing_reminder",
    title: "Loan current again",
    message: `Loan #${loan.tokenId} is current again: everything past due is paid.`,
    link: loanLink(loan.loanId),
  }),
  defaultSoon: (loan: RemindedLoan, defaultableAt: bigint): NotificationContent => ({
    type: "servicing_reminder",
    title: "Default possible soon",
    message: `Loan #${loan.tokenId} can be marked defaulted from ${reminderDate(defaultableAt)} unless it is repaid by then.`,
    link: loanLink(loan.loanId),
  }),
  holderLate: (loan: RemindedLoan, installment: number, dueDate: bigint): NotificationContent => ({
    type: "servicing_reminder",
    title: "Note late",
    message: `Note #${loan.tokenId} you hold is late: installment ${installment}, due on ${reminderDate(dueDate)}, is unpaid.`,
    link: nftLink(loan.tokenId),
  }),
  holderCured: (loan: RemindedLoan): NotificationContent => ({
    type: "servicing_reminder",
    title: "Note current again",
    message: `Note #${loan.tokenId} you hold is current again: its borrower paid everything past due.`,
    link: nftLink(loan.tokenId),
  }),
} as const;

export const NOTIFICATION_TEXTS = {
  loanApproved: (amount: string | bigint, loanId?: string): NotificationContent => ({
    type: "loan_approved",
    title: "Loan approved",
    message: `Loan Approved! ${usd(amount)} has been approved.`,
    link: loanId ? `/loans/${loanId}` : "/loans/my-loans",
  }),
  loanRejected: (reason?: string | null, loanId?: string): NotificationContent => ({
    type: "loan_rejected",
    title: "Loan rejected",
    message: reason?.trim() || "Please contact support for details.",
    link: loanId ? `/loans/${loanId}` : "/loans/my-loans",
  }),
  kycApproved: (): NotificationContent => ({
    type: "kyc_approved",
    title: "KYC approved",
    message: "KYC Approved! You can now apply for loans.",
    link: "/kyc",
  }),
  kycRejected: (reason?: string | null): NotificationContent => ({
    type: "kyc_rejected",
    title: "KYC rejected",
    message: reason?.trim() || "Please resubmit your documents.",
    link: "/kyc",
  }),
  loanFunded: (amount: string | bigint, tokenId: string): NotificationContent => ({
    type: "loan_funded",
    title: "Loan funded",
    message: `Loan Funded! ${usd(amount)} transferred. NFT #${tokenId} minted.`,
    link: nftLink(tokenId),
  }),
  newListing: (tokenId: string, price: string | bigint): NotificationContent => ({
    type: "nft_listed",
    title: "New NFT loan",
    message: `New NFT loan available: #${tokenId} (${usd(price)})`,
    link: `/marketplace/nft/${tokenId}`,
  }),
  repayment: (tokenId: string, amount: string | bigint): NotificationContent => ({
    type: "loan_repayment",
    title: "Repayment received",
    message: `Repayment of ${usd(amount)} received for note #${tokenId}.`,
    link: nftLink(tokenId),
  }),
  /**
   * A refinance, to each side: the borrower (their new loan), the old note's holder (paid off in full, credited) and the
   * new lender (their new note).
   */
  loanRefinanced: (audience: "borrower" | "holder" | "lender", refs: { tokenId: string; newTokenId: string; principal: string; payoff: string; loanId?: string }): NotificationContent => {
    if (audience === "holder") {
      return {
        type: "loan_refinanced",
        title: "Note paid off",
        message: `Note #${refs.tokenId} was refinanced and paid off in full: ${usd(refs.payoff)} credited to you.`,
        link: "/portfolio",
      };
    }
    if (audience === "lender") {
      return {
        type: "loan_refinanced",
        title: "Refinance accepted",
        message: `Your refinance offer was accepted: note #${refs.newTokenId} for ${usd(refs.principal)} is yours.`,
        link: nftLink(refs.newTokenId),
      };
    }
    return {
      type: "loan_refinanced",
      title: "Loan refinanced",
      message: `Loan #${refs.tokenId} is refinanced: paid off with ${usd(refs.payoff)}, your new loan is ${usd(refs.principal)}.`,
      link: refs.loanId ? `/loans/${refs.loanId}` : null,
    };
  },
  /** To the borrower, once the indexer has seen the final repayment (the note is burned). */
  loanCompleted: (tokenId: string, loanId: string): NotificationContent => ({
    type: "loan_status",
    title: "Loan Repaid",
    message: `Loan #${tokenId} is fully repaid.`,
    link: `/loans/${loanId}`,
  }),
  /** To the borrower (their loan), the note's holder (their portfolio) and admins (a system alert). */
  loanDefaulted: (tokenId: string, principal: string | bigint, audience: { loanId: string; admin?: boolean } | "holder"): NotificationContent => ({
    type: audience !== "holder" && audience.admin ? "system_alert" : "loan_status",
    title: "Loan Defaulted",
    message: `Loan #${tokenId} (${usd(principal)}) was marked as defaulted.`,
    link: audience === "holder" ? "/portfolio" : audience.admin ? `/admin/loans?loan=${audience.loanId}` : `/loans/${audience.loanId}`,
  }),
  /**
   * To the holder whose listing lapsed because the note changed under it (null: no notice, for a move the holder
   * made or the final repayment, which its own notice tells). Never to the treasury, which is no user.
   */
  listingLapsed: (tokenId: string, reason: ListingLapseReason, amount: string | bigint | null): NotificationContent | null => {
    const micro = amount === null ? null : typeof amount === "bigint" ? amount : parseUsd(amount);
    const why = reason === "repaid" && micro !== null ? `${listingLapseText(reason, micro)}. List it again at a new price.` : reason === "defaulted" ? `${listingLapseText(reason, null)}.` : null;
    return why === null ? null : { type: "listing_lapsed", title: "Listing lapsed", message: `Your listing of note #${tokenId} lapsed: ${why}`, link: nftLink(tokenId) };
  },
  /**
   * To the holder of a note when the API stores an offer on it, or a matching offer its note fits; `price` is
   * what the offer pays for the note today (a par offer's price moves with repayments).
   */
  offerReceived: (tokenId: string, price: string | bigint, matching = false): NotificationContent => ({
    type: "offer_received",
    title: "Offer received",
    message: `${matching ? "An offer on any matching note fits" : "New offer on"} note #${tokenId}: ${usd(price)} today.`,
    link: nftLink(tokenId),
  }),
  /** To the signer of a listing (the seller) or of an offer (the buyer) when the chain fills it. */
  orderFilled: (kind: "listing" | "offer" | "matchingOffer", tokenId: string, price: string | bigint): NotificationContent => ({
    type: "order_filled",
    title: kind === "listing" ? "Listing filled" : "Offer filled",
    message: kind === "listing" ? `Your listing of note #${tokenId} was filled for ${usd(price)}.` : `Your offer was filled: you bought note #${tokenId} for ${usd(price)}.`,
    link: nftLink(tokenId),
  }),
  /** To the borrower, when the loan is originated and the pledged piece moves into LoanNote's escrow. */
  collateralLocked: (p: PledgedPiece): NotificationContent => ({
    type: "collateral",
    title: "NFT in escrow",
    message: `Your ${pieceName(p)} is held in escrow for loan #${p.tokenId} until it is repaid.`,
    link: loanLink(p.loanId),
  }),
  /** To the borrower: the final payment sent the piece back, or their pull after a refused return did. */
  collateralReturned: (p: PledgedPiece, to: string): NotificationContent => ({
    type: "collateral",
    title: "NFT returned",
    message: `Loan #${p.tokenId} is repaid: your ${pieceName(p)} was returned to ${shortAddress(to)}.`,
    link: loanLink(p.loanId),
  }),
  /** To the borrower: the collection refused the return at the final payment; the piece waits for their claim. */
  collateralReturnFailed: (p: PledgedPiece): NotificationContent => ({
    type: "collateral",
    title: "Claim your NFT",
    message: `Loan #${p.tokenId} is repaid, but its collection refused to send back your ${pieceName(p)}. Claim it back from the loan page.`,
    link: loanLink(p.loanId),
  }),
  /** After a default: to the borrower (their loan), the note's holder who claimed it, and admins. */
  collateralClaimed: (p: PledgedPiece, to: string, audience: "borrower" | "holder" | "admin"): NotificationContent => ({
    type: "collateral",
    title: audience === "holder" ? "NFT claimed" : "NFT collateral claimed",
    message:
      audience === "borrower"
        ? `Loan #${p.tokenId} defaulted: your pledged ${pieceName(p)} was claimed by the note's holder.`
        : audience === "holder"
          ? `You claimed ${pieceName(p)} securing defaulted loan #${p.tokenId}; it was sent to ${shortAddress(to)} and the note is settled.`
          : `${pieceName(p)} securing defaulted loan #${p.tokenId} was claimed by the note's holder, sent to ${shortAddress(to)}.`,
    link: audience === "borrower" ? loanLink(p.loanId) : audience === "admin" && p.loanId ? `/admin/loans?loan=${p.loanId}` : nftLink(p.tokenId),
  }),
  noteSold: (tokenId: string, price: string | bigint): NotificationContent => ({
    type: "nft_sold",
    title: "NFT sold",
    message: `Note #${tokenId} sold for ${usd(price)}.`,
    link: nftLink(tokenId),
  }),
} as const;
