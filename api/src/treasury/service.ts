import { eq } from "drizzle-orm";
import type { Address } from "viem";
import { loanNoteAbi, noteMarketplaceAbi } from "#domain/abis";
import { formatUsdAmount } from "#domain/money";
import { loans, type LoanRow } from "#db/schema";
import { TIMELINE_NOTES } from "../loans/texts";
import { AppError, conflict, notFound } from "../http/errors";
import { describeChainError, type ChainGateway } from "../chain/gateway";
import type { Origination } from "../loans/origination";
import type { LoansRepository } from "../loans/repository";

export const TREASURY_ANSWERS = {
  repriced: "Listing price updated",
  listed: "Note listed",
  unlisted: "Note unlisted",
  withdrawn: "Repayments withdrawn to the treasury",
  nothingToWithdraw: "The treasury has no repayments waiting to be withdrawn",
  notHeld: "The treasury does not hold this note",
  notListed: "The treasury has not listed this note",
  noteNotFound: "Note not found",
} as const;

/** Why the note's last listing lapsed, as the wire reads it (the mirror's record; null when it did not lapse). */
function lapseOf(lapse: { reason: string; amount: bigint | null; txHash: string | null } | undefined) {
  return lapse ? { reason: lapse.reason, amount: lapse.amount === null ? null : formatUsdAmount(lapse.amount), txHash: lapse.txHash } : null;
}

/** Any chain trouble in an admin's treasury action is a 503 with the reason, never a 500. */
async function onChain<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof AppError) throw error;
    const failure = describeChainError(error);
    throw new AppError(failure.revert ? 409 : 503, failure.message);
  }
}

/**
 * The treasury's notes, listings and credits, read from the chain (the truth), and the actions admins take on
 * them from /admin/portfolio, signed by the server with the treasury key (DESIGN.md "Money and ownership").
 */
export function createTreasuryService(deps: { repo: LoansRepository; chain: ChainGateway; origination: Origination }) {
  const { repo, chain, origination } = deps;

  async function contracts() {
    const deployment = await chain.deployment();
    return { deployment, loanNote: deployment.contracts.loanNote as Address, marketplace: deployment.contracts.marketplace as Address, treasury: deployment.treasury as Address };
  }

  async function noteState(loan: LoanRow) {
    const { loanNote, marketplace, treasury } = await contracts();
    let owner: string | null = null;
    try {
      owner = (await chain.publicClient.readContract({ address: loanNote, abi: loanNoteAbi, functionName: "ownerOf", args: [loan.loanNumber] })).toLowerCase();
    } catch {
      owner = null;
    }
    const [seller, price] = await chain.publicClient.readContract({ address: marketplace, abi: noteMarketplaceAbi, functionName: "listingOf", args: [loan.loanNumber] });
    const onChainLoan = await origination.loanOnChain(loan.loanNumber);
    return {
      held: owner === treasury.toLowerCase(),
      owner,
      listed: seller.toLowerCase() === treasury.toLowerCase(),
      price,
      onChainLoan,
    };
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
        const { treasury, loanNote } = await contracts();
        const [funds, credits] = await Promise.all([
          origination.treasuryFunds(),
          chain.publicClient.readContract({ address: loanNote, abi: loanNoteAbi, functionName: "creditsOf", args: [treasury] }),
        ]);
        // Every note is read at once: the chain client batches these calls into a few JSON-RPC round trips.
        const minted = (await repo.withStatus(["active", "defaulted"])).filter((loan) => loan.mintStatus === "minted");
        const [states, lapses] = await Promise.all([Promise.all(minted.map((loan) => noteState(loan))), repo.listingLapses(minted.map((loan) => loan.loanNumber))]);
        const notes = [];
        for (const [i, loan] of minted.entries()) {
          const state = states[i]!;
          if (!state.held) continue;
          notes.push({
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
        };
      });
    },

    /** Lists a held note at `price`, or changes the price of its listing. */
    async reprice(tokenId: string, price: bigint, actorId: string) {
      const loan = await heldLoan(tokenId);
      return onChain(async () => {
        const { marketplace } = await contracts();
        const state = await noteState(loan);
        if (!state.held) throw conflict(TREASURY_ANSWERS.notHeld);
        const receipt = await chain.send({
          signer: "treasury",
          address: marketplace,
          abi: noteMarketplaceAbi,
          functionName: state.listed ? "updatePrice" : "list",
          args: [loan.loanNumber, price],
        });
        await repo.transition(loan.id, undefined, { listingStatus: "listed", listingTxHash: receipt.transactionHash, listingError: null }, {
          action: state.listed ? "repriced" : "listed",
          actorId,
          notes: TIMELINE_NOTES.listed(price),
          txHash: receipt.transactionHash,
        });
        return { tokenId, listingPrice: formatUsdAmount(price), txHash: receipt.transactionHash, message: state.listed ? TREASURY_ANSWERS.repriced : TREASURY_ANSWERS.listed };
      });
    },

    async unlist(tokenId: string, actorId: string) {
      const loan = await heldLoan(tokenId);
      return onChain(async () => {
        const { marketplace } = await contracts();
        const state = await noteState(loan);
        if (!state.listed) throw conflict(TREASURY_ANSWERS.notListed);
        const receipt = await chain.send({ signer: "treasury", address: marketplace, abi: noteMarketplaceAbi, functionName: "cancel", args: [loan.loanNumber] });
        await repo.transition(loan.id, eq(loans.mintStatus, "minted"), { listingStatus: "none" }, { action: "unlisted", actorId, txHash: receipt.transactionHash });
        return { tokenId, txHash: receipt.transactionHash };
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
