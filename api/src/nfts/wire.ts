import { createHash } from "node:crypto";
import { formatUsdAmount } from "#domain/money";
import { monthlyPayment, outstandingBalance, totalDue, type LoanTerms } from "#domain/schedule";
import { performanceGrade, type NoteLife } from "#domain/servicing";
import { servicingRecord, type FeeParams } from "#domain/servicingRecord";
import type { WireNft } from "#domain/wire/nft";
import { servicedLoanOf, type NoteRow } from "./repository";
import { pledgeFromRow } from "../collateral/wire";

export interface WireContext {
  chainId: number;
  loanNote: string | null;
  vault: string | null;
  explorerUrl?: string;
  /** The chain's clock (api/src/chain/chainClock.ts): servicing figures are judged by it. */
  now: bigint;
  /** The deployment's late-fee terms: fees owed are part of what is past due and of a par price. */
  fees: FeeParams;
}

const iso = (value: Date | string | null | undefined) => (value ? new Date(value).toISOString() : null);
export const percent = (bps: number) => bps / 100;

/** A stable uuid-shaped id for a note no loan row knows (a note minted outside the API); every record has an _id. */
function noteId(chainId: number, tokenId: string): string {
  const h = createHash("sha256").update(`note:${chainId}:${tokenId}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function termsOf(row: NoteRow): LoanTerms {
  return { principal: BigInt(row.principal), rateBps: row.rate_bps, termMonths: row.term_months, start: BigInt(row.start_time) };
}

/** Where the app links a token: the configured explorer on a public network, else its own explorer pages. */
export function tokenExplorerUrl(ctx: WireContext, tokenId: string): string {
  return ctx.explorerUrl && ctx.loanNote ? `${ctx.explorerUrl.replace(/\/$/, "")}/token/${ctx.loanNote}?a=${tokenId}` : `/explorer/token/${tokenId}`;
}

/** Status of the loan as the spec reads it, from the note when the loan row does not say more. */
function loanStatus(row: NoteRow): string {
  if (row.status === "repaid") return "completed";
  if (row.status === "defaulted") return "defaulted";
  return row.loan_status && row.loan_status !== "approved" ? row.loan_status : "active";
}

function marketplaceStatus(row: NoteRow): WireNft["marketplaceStatus"] {
  if (row.burned) return "repaid";
  if (row.listing_price !== null) return "listed";
  if (row.depositor) return "vaulted";
  return "unlisted";
}

/** Why the note's last listing is no longer offered, when it lapsed rather than being sold or cancelled. */
function listingLapse(row: NoteRow): WireNft["listingLapse"] {
  if (!row.lapse_reason || row.listing_price !== null) return null;
  return { reason: row.lapse_reason, amount: row.lapse_amount ? formatUsdAmount(BigInt(row.lapse_amount)) : null, txHash: row.lapse_tx_hash ?? null };
}

const lifeOf = (row: NoteRow): NoteLife => (row.status === "repaid" ? "repaid" : row.status === "defaulted" ? "defaulted" : "active");

/** The spec's "Marketplace NFT record", money as decimal strings in USD. */
export function toNftRecord(row: NoteRow, ctx: WireContext): WireNft {
  const terms = termsOf(row);
  const servicing = servicingRecord(servicedLoanOf(row), lifeOf(row), ctx.now, ctx.fees);
  const tokenId = row.token_id;
  const principal = formatUsdAmount(terms.principal);
  const rate = percent(row.rate_bps);
  const repaid = BigInt(row.total_repaid);
  const listed = row.listing_price !== null;
  const purpose = row.purpose ?? "other";
  return {
    _id: row.loan_id ?? noteId(ctx.chainId, tokenId),
    loanId: row.loan_id,
    tokenId,
    contractAddress: ctx.loanNote,
    transactionHash: row.origin_tx_hash,
    ownerAddress: row.holder,
    /** The ERC-721 owner: the vault while deposited. */
    custodyAddress: row.owner,
    borrowerAddress: row.borrower,
    collateral: pledgeFromRow(row),
    previousOwners: row.previous_owners ?? [],
    inVault: row.depositor !== null,
    metadata: {
      name: `LoanMint Note #${tokenId}`,
      description: `Loan #${tokenId}: ${principal} USD at ${rate}% for ${row.term_months} months`,
      image: null,
      attributes: [
        { trait_type: "Principal", value: principal },
        { trait_type: "Interest Rate", value: rate },
        { trait_type: "Term Months", value: row.term_months },
        { trait_type: "Purpose", value: purpose },
      ],
      loanDetails: {
        amount: principal,
        interestRate: rate,
        termMonths: row.term_months,
        purpose,
        status: loanStatus(row),
        approvalDate: iso(row.approval_date) ?? iso(row.origin_time),
      },
    },
    verbwireData: { mintedAt: iso(row.origin_time), network: ctx.chainId === 31337 ? "Local chain (31337)" : `Chain ${ctx.chainId}` },
    marketplaceStatus: marketplaceStatus(row),
    listingPrice: listed ? formatUsdAmount(BigInt(row.listing_price!)) : null,
    listingDate: listed ? iso(row.listing_time) : null,
    listingTxHash: listed ? row.listing_tx_hash : null,
    sellerAddress: listed ? row.listing_seller : null,
    listingLapse: listingLapse(row),
    isActive: !row.burned && (row.status === "active" || row.status === "defaulted"),
    totalRepaid: formatUsdAmount(repaid),
    outstandingBalance: formatUsdAmount(row.burned ? 0n : outstandingBalance(terms, repaid)),
    monthlyPayment: formatUsdAmount(monthlyPayment(terms.principal, terms.rateBps, terms.termMonths)),
    totalDue: formatUsdAmount(totalDue(terms)),
    totalInterest: formatUsdAmount(totalDue(terms) - terms.principal),
    startTime: Number(row.start_time),
    explorerUrl: tokenExplorerUrl(ctx, tokenId),
    performance: performanceGrade(servicing.status, repaid),
    servicing,
    createdAt: iso(row.created_at) ?? iso(row.origin_time),
    updatedAt: iso(row.updated_at) ?? iso(row.origin_time),
  };
}
export type NftRecord = WireNft;

/** The same listing shaped as the spec's loan (GET /loans/marketplace/list reads data.loans), with its signed orders. */
export function toMarketplaceLoan(record: NftRecord & { signedListing?: unknown; bestOffer?: unknown }) {
  const d = record.metadata.loanDetails;
  return {
    _id: record._id,
    loanNumber: record.tokenId,
    amount: d.amount,
    principal: d.amount,
    purpose: d.purpose,
    interestRate: d.interestRate,
    termMonths: d.termMonths,
    status: d.status,
    approvalDate: d.approvalDate,
    nftTokenId: record.tokenId,
    nftTransactionHash: record.transactionHash,
    nftValue: record.listingPrice,
    listingPrice: record.listingPrice,
    listingDate: record.listingDate,
    sellerAddress: record.sellerAddress,
    monthlyPayment: record.monthlyPayment,
    totalInterest: record.totalInterest,
    totalRepaid: record.totalRepaid,
    remainingBalance: record.outstandingBalance,
    // The escrowed piece as every note view shows it (domain/wire/collateral.ts), not the request's {type, value,
    // description}: a buyer prices the NFT in escrow, and the borrower's own estimate is not public.
    collateral: record.collateral,
    createdAt: record.createdAt,
    signedListing: record.signedListing ?? null,
    bestOffer: record.bestOffer ?? null,
  };
}
