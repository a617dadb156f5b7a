import { TransactionNotFoundError, type Address, type Hex } from "viem";
import { periodicJob, type PeriodicJob } from "./periodicJob";
import { loanNoteAbi } from "#domain/abis";
import { LOAN_NOTE_STATUS } from "#domain/loanNoteStatus";
import { defaultableAt, type ServicingParams } from "#domain/lateFees";
import type { LoanRow } from "#db/schema";
import { readServicingParams } from "../chain/servicingParams";
import { AppError, conflict, notFound } from "../http/errors";
import { describeChainError, type ChainGateway } from "../chain/gateway";
import { waitForMirror } from "../loans/mirror";
import type { Origination } from "../loans/origination";
import type { LoansRepository } from "../loans/repository";
import { LOAN_ANSWERS } from "../loans/texts";

interface Logger {
  warn(obj: unknown, msg?: string): void;
}

/**
 * A pass of the job: every active loan the contract lets default (its oldest unpaid installment `defaultAfterDays` past
 * due, or past maturity plus grace) is marked defaulted on-chain; a loan left minting
 * longer than STALE_MS whose origination the chain does not know is failed, for an admin to retry. The treasury's
 * listings need no watching: each is a signature at par, which no reorg drops and no repayment makes lapse.
 */
export interface LoanWatcher extends PeriodicJob<{ defaulted: number; unminted: number }> {
  /** The admin action: marks one loan defaulted on-chain (originator) once the contract allows it. */
  markDefaulted(loanId: string, actorId: string | null): Promise<LoanRow>;
}

/**
 * How long a loan may stay `minting` before the job asks the chain about its transaction. An approval waits for its
 * receipt far less; what outlives this is a transaction a reorg dropped and no block took again, or a send lost in a
 * crash.
 */
export const STALE_MS = 10 * 60_000;

/** viem's "no such transaction" as null; any other failure (the node is down) stays an error. */
function notFoundAsNull(error: unknown): null {
  if (error instanceof TransactionNotFoundError) return null;
  throw error;
}

/**
 * The defaults job: it sends `markDefaulted` for each active loan from the moment the contract allows it
 * (`defaultableAt`: days past due, or maturity and the grace period).
 * It never changes a loan's status itself: the indexer does, when it mirrors LoanDefaulted (or LoanRepaid), and
 * tells borrower, holder and admins through the outbox (indexer/loans.ts), so a status follows the chain only.
 * Each pass also asks the node about mints a reorg may have dropped: a rollback puts a loan back as the approval left
 * it (minting), which nothing moves on if no block takes the origination again. Every API process runs it: each change is a conditional transition,
 * so two passes at once change a loan once.
 */
export function createLoanWatcher(deps: {
  repo: LoansRepository;
  chain: ChainGateway;
  origination: Origination;
  /** Blocks the indexer stays behind the head (CONFIRMATIONS). */
  confirmations?: number;
  logger?: Logger;
}): LoanWatcher {
  const { repo, chain, origination } = deps;

  async function servicingParams(): Promise<ServicingParams> {
    const deployment = await chain.deployment();
    return readServicingParams(chain.publicClient, deployment.contracts.loanNote as Address);
  }

  /** Sends the default and records who asked; answers the block it was mined in. */
  async function sendDefault(loan: LoanRow, actorId: string | null): Promise<bigint> {
    const deployment = await chain.deployment();
    const receipt = await chain.send({
      signer: "originator",
      address: deployment.contracts.loanNote as Address,
      abi: loanNoteAbi,
      functionName: "markDefaulted",
      args: [loan.loanNumber],
      onSent: async (hash) => {
        const notes = actorId ? "Marked defaulted by an admin" : "Unpaid past the moment the contract allows a default";
        await repo.addEvent(loan.id, { action: "default_sent", actorId, notes, txHash: hash });
      },
    });
    return receipt.blockNumber;
  }

  /** True when the node holds the transaction, pending or mined; false when it has never heard of it (or forgot it). */
  async function nodeKnows(hash: string | null): Promise<boolean> {
    return hash !== null && (await chain.publicClient.getTransaction({ hash: hash as Hex }).catch(notFoundAsNull)) !== null;
  }

  /** Stale mints: a transaction the node still holds is left to the approval or the indexer. */
  async function reconcileStaleMints(): Promise<number> {
    let unminted = 0;
    const stale = (await repo.withMintStatus(["minting"])).filter((loan) => Date.now() - loan.updatedAt.getTime() > STALE_MS);
    for (const loan of stale) {
      try {
        if (await nodeKnows(loan.mintTxHash)) continue;
        if ((await origination.reconcileOne(loan))?.mintStatus === "failed") unminted += 1;
      } catch (error) {
        deps.logger?.warn({ err: error, loanId: loan.id }, "loan job could not reconcile a stale mint");
      }
    }
    return unminted;
  }

  async function pass() {
    const result = { defaulted: 0, unminted: await reconcileStaleMints() };
    const watched = (await repo.withStatus(["active"])).filter((loan) => loan.mintStatus === "minted");
    if (!watched.length) return result;
    const [now, params] = await Promise.all([chain.now(), servicingParams()]);
    for (const loan of watched) {
      try {
        const onChain = await origination.loanOnChain(loan.loanNumber);
        if (onChain.status !== LOAN_NOTE_STATUS.active) continue;
        const availableAt = defaultableAt({ terms: onChain, repaid: onChain.repaid }, params);
        if (now < availableAt) continue;
        await sendDefault(loan, null);
        result.defaulted += 1;
      } catch (error) {
        deps.logger?.warn({ err: error, loanId: loan.id }, "defaults job could not check a loan");
      }
    }
    return result;
  }

  return {
    ...periodicJob(pass, "defaults job pass failed", deps.logger),
    async markDefaulted(loanId, actorId) {
      const loan = await repo.findById(loanId);
      if (!loan) throw notFound(LOAN_ANSWERS.notFound);
      if (loan.status !== "active" || loan.mintStatus !== "minted") throw conflict(LOAN_ANSWERS.notDefaultable);
      let onChain, now, params, head;
      try {
        [onChain, now, params, head] = await Promise.all([origination.loanOnChain(loan.loanNumber), chain.now(), servicingParams(), chain.publicClient.getBlockNumber()]);
      } catch (error) {
        throw new AppError(503, describeChainError(error).message);
      }
      // Already defaulted on-chain: the indexer is about to record it.
      if (onChain.status === LOAN_NOTE_STATUS.defaulted) {
        await waitForMirror(repo, head - BigInt(deps.confirmations ?? 0));
        return (await repo.findById(loanId)) as LoanRow;
      }
      if (onChain.status !== LOAN_NOTE_STATUS.active) throw conflict(LOAN_ANSWERS.notDefaultable);
      const availableAt = defaultableAt({ terms: onChain, repaid: onChain.repaid }, params);
      if (now < availableAt) throw conflict(LOAN_ANSWERS.defaultTooEarly(new Date(Number(availableAt) * 1000).toISOString()));
      let block: bigint;
      try {
        block = await sendDefault(loan, actorId);
      } catch (error) {
        throw new AppError(503, describeChainError(error).message);
      }
      await waitForMirror(repo, block);
      return (await repo.findById(loanId)) as LoanRow;
    },
  };
}
