import { eq } from "drizzle-orm";
import type { Address, Hex } from "viem";
import { loanNoteAbi, noteMarketplaceAbi } from "#domain/abis";
import { formatUsdAmount } from "#domain/money";
import { LOAN_NOTE_STATUS } from "#domain/loanNoteStatus";
import { ORDER_STATUS_REASONS } from "#domain/orderStatus";
import { loans, type LoanRow } from "#db/schema";
import { TIMELINE_NOTES } from "../loans/texts";
import { AppError, conflict, notFound } from "../http/errors";
import { describeChainError, type ChainGateway } from "../chain/gateway";
import type { Origination } from "../loans/origination";
import type { LoansRepository } from "../loans/repository";
import { AT_PAR, NoteLateError, openTreasuryListings, signTreasuryListing, type TreasuryListingDeps } from "./parListing";
import { priceToday } from "../orders/announce";
import { chainNow } from "../chain/chainClock";
import type { PayoffSplit } from "#domain/servicing";
import { servicingRecord } from "#domain/servicingRecord";
import { lateFeeParamsOf } from "../chain/lateFeeParams";
import { TREASURY_ANSWERS } from "./texts";

const CANCELLED = ORDER_STATUS_REASONS.cancelled;

/** Why the note's last listing lapsed, as the wire reads it (the mirror's record; null when it did not lapse). */
function lapseOf(lapse: { reason: string; amount: bigint | null; txHash: string | null } | undefined) {
  return lapse ? { reason: lapse.reason, amount: lapse.amount === null ? null : formatUsdAmount(lapse.amount), txHash: lapse.txHash } : null;
}

/** Any chain trouble in an admin's treasury action is a 503 with the reason, never a 500. */
export async function onChain<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof NoteLateError) throw conflict(TREASURY_ANSWERS.late(error.daysPastDue));
    const failure = describeChainError(error);
    throw new AppError(failure.revert ? 409 : 503, failure.message);
  }
}

/**
 * The treasury's notes, listings and credits, read from the chain (the truth), and the actions admins take on
 * them from /admin/portfolio, signed by the server with the treasury key.
 */
export function createTreasuryService(deps: { repo: LoansRepository; chain: ChainGateway; origination: Origination } & Omit<TreasuryListingDeps, "chain">) {
  const { repo, chain, origination } = deps;
  const listingDeps: TreasuryListingDeps = { chain, orders: deps.orders, announcer: deps.announcer, logger: deps.logger };

  async function contracts() {
    const deployment = await chain.deployment();
    return { deployment, loanNote: deployment.contracts.loanNote as Address, marketplace: deployment.contracts.marketplace as Address, treasury: deployment.treasury as Address };
  }

  async function noteState(loan: LoanRow) {
    const { loanNote, marketplace, treasury } = await contracts();
    let owner: string | null;
    try {
      owner = (await chain.publicClient.readContract({ address: loanNote, abi: loanNoteAbi, functionName: "ownerOf", args: [loan.loanNumber] })).toLowerCase();
    } catch {
      owner = null;
    }
    const [[seller, onChainPrice], onChainLoan, signed, split] = await Promise.all([
      chain.publicClient.readContract({ address: marketplace, abi: noteMarketplaceAbi, functionName: "listingOf", args: [loan.loanNumber] }),
      origination.loanOnChain(loan.loanNumber),
      openTreasuryListings(listingDeps, loan.loanNumber),
      splitOf(loan.loanNumber),
    ]);
    // The treasury's signed listing or, for a note listed before it, an on-chain one.
    const onChainListed = seller.toLowerCase() === treasury.toLowerCase();
    const held = owner === treasury.toLowerCase();
    return {
      held,
      owner,
      listed: (held && signed.length > 0 && onChainLoan.status === LOAN_NOTE_STATUS.active) || onChainListed,
      onChainListed,
      signed,
      price: signed[0] ? priceToday(signed[0], split) : onChainPrice,
      onChainLoan,
    };
  }

  /** What settles the note now, split as a par price reads it (zero once it is no longer active). */
  async function splitOf(tokenId: bigint): Promise<PayoffSplit> {
    const { loanNote } = await contracts();
    const state = await chain.publicClient.readContract({ address: loanNote, abi: loanNoteAbi, functionName: "noteStateOf", args: [tokenId] });
    return { principal: state.outstanding, interest: state.interest };
  }

  /**
   * Cancels on-chain, by the treasury key, every listing of the note the treasury made but `keep`: its signed ones in
   * one cancelOrders (the book marks them cancelled when the indexer mirrors it), and an on-chain listing from before
   * signed orders. Answers the last transaction's hash, or null when there was nothing to cancel.
   */
  async function cancelOld(tokenId: bigint, state: { signed: { hash: string }[]; onChainListed: boolean }, keep: string | null): Promise<string | null> {
    const { marketplace } = await contracts();
    let txHash: string | null = null;
    const hashes = state.signed.map((order) => order.hash).filter((hash) => hash !== keep) as Hex[];
    if (hashes.length > 0) {
      txHash = (await chain.send({ signer: "treasury", address: marketplace, abi: noteMarketplaceAbi, functionName: "cancelOrders", args: [hashes] })).transactionHash;
      // Mined: the book says so now rather than when the indexer's mirror reaches the block.
      for (const hash of hashes) await deps.orders.setStatus(hash, "cancelled", CANCELLED, 0n);
    }
    if (state.onChainListed) {
      txHash = (await chain.send({ signer: "treasury", address: marketplace, abi: noteMarketplaceAbi, functionName: "cancel", args: [tokenId] })).transactionHash;
    }
    return txHash;
  }

  async function heldLoan(tokenId: string): Promise<LoanRow> {
    if (!/^\d{1,30}$/.test(tokenId)) throw notFound(TREASURY_ANSWERS.noteNotFound);
    const loan = await repo.findByLoanNumber(BigInt(tokenId));
    if (!loan || loan.mintStatus !== "minted") throw notFound(TREASURY_ANSWERS.noteNotFound);
    return loan;
  }

  return {
    async summary() {
      return onChain(async () => {
        const { treasury, loanNote, deployment } = await contracts();
        const [funds, credits] = await Promise.all([
          origination.treasuryFunds(),
          chain.publicClient.readContract({ address: loanNote, abi: loanNoteAbi, functionName: "creditsOf", args: [treasury] }),
        ]);
        // Every note is read at once: the chain client batches these calls into a few JSON-RPC round trips.
        const minted = (await repo.withStatus(["active", "defaulted"])).filter((loan) => loan.mintStatus === "minted");
        const [states, lapses] = await Promise.all([Promise.all(minted.map((loan) => noteState(loan))), repo.listingLapses(minted.map((loan) => loan.loanNumber))]);
        const [now, fees] = await Promise.all([chainNow(chain.publicClient), lateFeeParamsOf(chain.publicClient, deployment)]);
        const notes = [];
        for (const [i, loan] of minted.entries()) {
          const state = states[i]!;
          if (!state.held) continue;
          const onChain = state.onChainLoan;
          const terms = { principal: onChain.principal, rateBps: onChain.rateBps, termMonths: onChain.termMonths, start: onChain.start };
          const life = onChain.status === LOAN_NOTE_STATUS.defaulted ? "defaulted" : "active";
          notes.push({
            servicing: servicingRecord({ terms, repaid: onChain.repaid, feesPaidThrough: onChain.feesPaidThrough }, life, now, fees),
            tokenId: loan.loanNumber.toString(),
            loanId: loan.id,
            status: loan.status,
            principal: formatUsdAmount(state.onChainLoan.principal),
            totalRepaid: formatUsdAmount(state.onChainLoan.repaid),
            listed: state.listed,
            listingPrice: state.listed ? formatUsdAmount(state.price) : null,
            listingStatus: loan.listingStatus,
            listingLapse: state.listed ? null : lapseOf(lapses.get(loan.loanNumber.toString())),
          });
        }
        const pending = await repo.withStatus(["pending"]);
        const nextApproval = pending.reduce((max, l) => (l.amount > max ? l.amount : max), 0n);
        return {
          address: treasury,
          balance: formatUsdAmount(funds.balance),
          allowance: formatUsdAmount(funds.allowance),
          credits: formatUsdAmount(credits),
          nextApproval: formatUsdAmount(nextApproval),
          canFundNextApproval: funds.balance >= nextApproval && funds.allowance >= nextApproval,
          notes,
          listings: notes.filter((n) => n.listed),
          /** Held notes whose borrower is past due: their par listing waits for the loan to be current again. */
          lateNotes: notes.filter((n) => n.servicing.daysPastDue > 0),
        };
      });
    },

    /**
     * Lists a held note at a fixed `price` (bound to the note's state) or at 100% of par, by a new listing the treasury
     * signs, then cancels its previous listings on-chain (one transaction by the treasury key): a signed listing
     * lives until cancelled there, so a reprice must kill the old price, not only hide it.
     */
    async reprice(tokenId: string, price: bigint | "par", actorId: string) {
      const loan = await heldLoan(tokenId);
      return onChain(async () => {
        const state = await noteState(loan);
        if (!state.held) throw conflict(TREASURY_ANSWERS.notHeld);
        const listing = await signTreasuryListing(listingDeps, loan.loanNumber, price === "par" ? AT_PAR : { price });
        const txHash = await cancelOld(loan.loanNumber, state, listing.hash);
        const shown = price === "par" ? priceToday(listing, await splitOf(loan.loanNumber)) : price;
        await repo.transition(
          loan.id,
          undefined,
          { listingStatus: "listed", listingTxHash: null, listingError: null },
          {
            action: state.listed ? "repriced" : "listed",
            actorId,
            notes: price === "par" ? TIMELINE_NOTES.listedAtPar(shown) : TIMELINE_NOTES.listed(price),
            txHash,
          },
        );
        return {
          tokenId,
          listingPrice: formatUsdAmount(shown),
          orderHash: listing.hash,
          txHash,
          message: state.listed ? TREASURY_ANSWERS.repriced : TREASURY_ANSWERS.listed,
        };
      });
    },

    /** Cancels the treasury's listings of a held note on-chain (its signed ones by hash, an on-chain one by token). */
    async unlist(tokenId: string, actorId: string) {
      const loan = await heldLoan(tokenId);
      return onChain(async () => {
        const state = await noteState(loan);
        if (!state.listed) throw conflict(TREASURY_ANSWERS.notListed);
        const txHash = await cancelOld(loan.loanNumber, state, null);
        await repo.transition(loan.id, eq(loans.mintStatus, "minted"), { listingStatus: "none" }, { action: "unlisted", actorId, txHash });
        return { tokenId, txHash };
      });
    },

    async withdraw() {
      return onChain(async () => {
        const { loanNote, treasury } = await contracts();
        const credits = await chain.publicClient.readContract({ address: loanNote, abi: loanNoteAbi, functionName: "creditsOf", args: [treasury] });
        if (credits === 0n) throw conflict(TREASURY_ANSWERS.nothingToWithdraw);
        const receipt = await chain.send({ signer: "treasury", address: loanNote, abi: loanNoteAbi, functionName: "withdrawCredits", args: [] });
        return { amount: formatUsdAmount(credits), txHash: receipt.transactionHash };
      });
    },
  };
}
export type TreasuryService = ReturnType<typeof createTreasuryService>;
