import { formatUsdAmount } from "#domain/money";
import { loanNumberOf } from "#domain/noteIds";
import { maturity, monthlyPayment, totalDue, type LoanTerms } from "#domain/schedule";
import { performanceGrade, type NoteLife } from "#domain/servicing";
import { servicingRecord, type FeeParams } from "#domain/servicingRecord";
import type { WireServicing } from "#domain/wire/servicing";
import type { LoanEventRow, LoanRow } from "#db/schema";
import type { WireLoan, WireTimelineEntry } from "#domain/wire/loan";
import type { WirePledgedNft } from "#domain/wire/collateral";
import type { ChainMoment, CollateralHistory, LoanView } from "./repository";
import { pieceName } from "../notifications/texts";
import { TIMELINE_NOTES } from "./texts";
import { toWirePledgedNft } from "../collateral/wire";

export type { WireLoan, WireTimelineEntry };

/** Basis points to the wire's percent (850 -> 8.5). */
export const percent = (bps: number) => bps / 100;

export function termsOf(loan: LoanRow, start?: bigint): LoanTerms {
  return { principal: loan.principal ?? loan.amount, rateBps: loan.rateBps, termMonths: loan.termMonths, start: start ?? loan.noteStart ?? 0n };
}

/** Where the loan's note stands against its schedule at `nowSeconds`, late fees included; null until it has a note. */
function servicingOf(view: LoanView, nowSeconds: bigint, fees: FeeParams): WireServicing | null {
  const { loan } = view;
  if (loan.noteStart === null || loan.mintStatus !== "minted") return null;
  const life: NoteLife = loan.status === "completed" ? "repaid" : loan.status === "defaulted" ? "defaulted" : "active";
  return servicingRecord({ terms: termsOf(loan), repaid: view.totalRepaid, feesPaidThrough: view.feesPaidThrough }, life, nowSeconds, fees);
}

export function toWireTimeline(events: (LoanEventRow & { actorName: string | null; actorEmail: string | null })[]): WireTimelineEntry[] {
  return events.map((e) => ({
    action: e.action,
    at: e.createdAt.toISOString(),
    by: e.actorId ? { _id: e.actorId, name: e.actorName, email: e.actorEmail } : null,
    notes: e.notes,
    txHash: e.txHash,
  }));
}

/**
 * The escrow's moves as timeline entries, at their blocks' times; a move whose time is known nowhere is
 * left out. A return in another transaction than the note's burn is a pull after a refused return: the refusal
 * happened at the final payment, the transaction that burned the note.
 */
export function collateralTimeline(history: CollateralHistory, collectionName: string | null, refinanced = false): WireTimelineEntry[] {
  const piece = pieceName({ collection: history.collection, collateralId: history.collateralId, collectionName });
  const entries: WireTimelineEntry[] = [];
  const add = (action: string, moment: ChainMoment, notes: string) => {
    if (moment.time) entries.push({ action, at: moment.time.toISOString(), by: null, notes, txHash: moment.txHash });
  };
  // A refinance's loan got its pledge by the escrow's re-recording, the piece never leaving it.
  if (refinanced) add("collateral_moved", history.locked, TIMELINE_NOTES.collateralCarried(piece));
  else add("collateral_locked", history.locked, TIMELINE_NOTES.collateralLocked(piece));
  const { closed, burn, state } = history;
  if (!closed) return entries;
  if (state === "returned" && burn && burn.txHash !== closed.txHash) add("collateral_return_failed", burn, TIMELINE_NOTES.collateralReturnFailed(piece));
  if (state === "returnFailed") add("collateral_return_failed", closed, TIMELINE_NOTES.collateralReturnFailed(piece));
  if (state === "returned") add("collateral_returned", closed, TIMELINE_NOTES.collateralReturned(piece, closed.to));
  if (state === "claimed") add("collateral_claimed", closed, TIMELINE_NOTES.collateralClaimed(piece, closed.to));
  if (state === "moved") add("collateral_moved", closed, TIMELINE_NOTES.collateralMoved(piece));
  return entries;
}

/** The loan's pledged piece: the request's columns, or the escrow's row once the note was originated. */
export function pledgedNftOf(view: LoanView): WirePledgedNft | null {
  const { loan, pledge } = view;
  const collection = pledge.chainCollection ?? loan.collateralCollection;
  const tokenId = pledge.chainCollateralId ?? loan.collateralTokenId;
  if (!collection || tokenId === null) return null;
  return toWirePledgedNft({
    collection,
    tokenId,
    collectionName: pledge.collectionName,
    name: pledge.name,
    image: pledge.image,
    chainState: pledge.chainState,
    released: loan.status === "rejected",
    lockedTxHash: pledge.lockedTxHash,
    closedTxHash: pledge.closedTxHash,
    closedTo: pledge.closedTo,
    appraisal: loan.collateralAppraisal,
    principal: loan.principal ?? loan.amount,
  });
}

/**
 * The loan as the client reads it: domain/wire/loan.ts's shape, which the app parses with; `nowSeconds` is the chain's
 * clock, `fees` the deployment's late-fee terms.
 */
export function toWireLoan(view: LoanView, options: { timeline?: WireTimelineEntry[]; nowSeconds: bigint; fees: FeeParams }): WireLoan {
  const { loan, borrower, totalRepaid } = view;
  const terms = termsOf(loan);
  const due = totalDue(terms);
  const payment = monthlyPayment(terms.principal, terms.rateBps, terms.termMonths);
  const hasNote = loan.mintStatus === "minted";
  const servicing = servicingOf(view, options.nowSeconds, options.fees);
  const remaining = loan.status === "completed" ? 0n : due > totalRepaid ? due - totalRepaid : 0n;
  return {
    _id: loan.id,
    loanNumber: Number(loanNumberOf(loan.loanNumber)),
    userId: { _id: borrower.id, email: borrower.email ?? "" },
    user: {
      _id: borrower.id,
      firstName: borrower.firstName,
      lastName: borrower.lastName,
      email: borrower.email ?? "",
      walletAddress: borrower.walletAddress ?? null,
      kyc: { status: borrower.kycStatus },
      kycStatus: borrower.kycStatus,
    },
    amount: formatUsdAmount(loan.amount),
    principal: loan.principal === null ? null : formatUsdAmount(loan.principal),
    purpose: loan.purpose,
    interestRate: percent(loan.rateBps),
    termMonths: loan.termMonths,
    status: loan.status,
    mintStatus: loan.mintStatus,
    listingStatus: loan.listingStatus,
    requestDate: loan.createdAt.toISOString(),
    approvalDate: loan.approvalDate?.toISOString() ?? null,
    rejectionDate: loan.rejectionDate?.toISOString() ?? null,
    createdAt: loan.createdAt.toISOString(),
    updatedAt: loan.updatedAt.toISOString(),
    rejectionReason: loan.rejectionReason,
    adminNotes: loan.adminNotes,
    collateral: loan.collateral ? { type: loan.collateral.type, value: formatUsdAmount(BigInt(loan.collateral.value)), description: loan.collateral.description, nft: pledgedNftOf(view) } : null,
    borrowerWallet: loan.borrowerWallet,
    nftTokenId: hasNote ? loan.nftTokenId : null,
    nftTransactionHash: hasNote ? loan.nftTransactionHash : null,
    mintTxHash: loan.mintTxHash,
    mintError: loan.mintStatus === "failed" ? loan.mintError : null,
    listingTxHash: loan.listingTxHash,
    listingError: loan.listingStatus === "failed" ? loan.listingError : null,
    nftValue: hasNote ? formatUsdAmount(terms.principal) : null,
    monthlyPayment: formatUsdAmount(payment),
    totalInterest: formatUsdAmount(due - terms.principal),
    totalRepaid: formatUsdAmount(totalRepaid),
    remainingBalance: formatUsdAmount(remaining),
    noteStart: loan.noteStart === null ? null : new Date(Number(loan.noteStart) * 1000).toISOString(),
    maturityDate: loan.noteStart === null ? null : new Date(Number(maturity(terms)) * 1000).toISOString(),
    performance: servicing ? performanceGrade(servicing.status, totalRepaid) : null,
    servicing,
    refinancedTo: loan.refinancedTo,
    refinancedFrom: loan.refinancedFrom,
    ...(options.timeline ? { timeline: options.timeline } : {}),
  };
}
