import { eq, inArray } from "drizzle-orm";
import type { Address } from "viem";
import { loanNoteAbi, noteVaultAbi } from "../../../domain/abis";
import { formatUsdAmount } from "../../../domain/money";
import { PERIOD_SECONDS } from "../../../domain/schedule";
import { SERVER_EVENTS } from "../../../domain/events";
import { loans, type LoanRow } from "../../../db/schema";
import { AppError, conflict, notFound } from "../http/errors";
import type { Notifier } from "../notifications/notifier";
import type { UsersRepository } from "../users/repository";
import { describeChainError, type ChainGateway } from "../loans/chain";
import type { Origination } from "../loans/origination";
import type { LoansRepository } from "../loans/repository";
import { LOAN_ANSWERS, NOTIFY } from "../loans/texts";

interface Logger {
  warn(obj: unknown, msg?: string): void;
}

export interface LoanWatcher {
  /** One pass: loans repaid or defaulted on-chain are recorded; loans past maturity plus grace are marked defaulted. */
  runOnce(): Promise<{ completed: number; defaulted: number }>;
  /** The admin action: marks one loan defaulted on-chain (originator) once the contract allows it. */
  markDefaulted(loanId: string, actorId: string | null): Promise<LoanRow>;
  start(intervalMs?: number): void;
  stop(): void;
}

/**
 * The defaults job of DESIGN.md ("a job in the API marks unpaid loans defaulted on-chain and notifies borrower,
 * holder and admins"), which also records final repayments the chain saw, so loan statuses follow the chain
 * even when no indexer runs beside the API.
 */
export function createLoanWatcher(deps: {
  repo: LoansRepository;
  users: UsersRepository;
  chain: ChainGateway;
  origination: Origination;
  notifier: Notifier;
  logger?: Logger;
}): LoanWatcher {
  const { repo, users, chain, origination, notifier } = deps;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;

  async function holderOf(tokenId: bigint): Promise<string | null> {
    const deployment = await chain.deployment();
    try {
      const owner = (await chain.publicClient.readContract({ address: deployment.contracts.loanNote as Address, abi: loanNoteAbi, functionName: "ownerOf", args: [tokenId] })) as Address;
      if (owner.toLowerCase() !== deployment.contracts.vault.toLowerCase()) return owner.toLowerCase();
      const depositor = (await chain.publicClient.readContract({ address: deployment.contracts.vault as Address, abi: noteVaultAbi, functionName: "depositorOf", args: [tokenId] })) as Address;
      return depositor.toLowerCase();
    } catch {
      return null;
    }
  }

  async function recordDefault(loan: LoanRow, actorId: string | null, txHash: string | null): Promise<LoanRow | undefined> {
    const updated = await repo.transition(
      loan.id,
      eq(loans.status, "active"),
      { status: "defaulted", defaultedAt: new Date() },
      { action: "defaulted", actorId, notes: actorId ? "Marked defaulted by an admin" : "Past maturity and the grace period, unpaid", txHash },
    );
    if (!updated) return undefined;
    const principal = updated.principal ?? updated.amount;
    const text = NOTIFY.defaulted(updated.loanNumber, principal);
    const event = { name: SERVER_EVENTS.loanStatus, payload: { status: "defaulted" as const, amount: formatUsdAmount(principal), loanId: updated.id, tokenId: updated.loanNumber.toString(), txHash: txHash ?? undefined } };
    await notifier.notifyUser(updated.userId, { type: "loan_status", ...text, link: `/loans/${updated.id}` }, event);
    const holder = await holderOf(updated.loanNumber);
    const holderUser = holder ? await users.findByWallet(holder) : undefined;
    if (holderUser && holderUser.id !== updated.userId) {
      await notifier.notifyUser(holderUser.id, { type: "loan_status", ...text, link: `/portfolio` }, event);
    }
    await notifier.notifyAdmins({ type: "system_alert", ...text, link: `/admin/loans?loan=${updated.id}` }, {
      name: SERVER_EVENTS.adminNotification,
      payload: { type: "system_alert", message: text.message, loanId: updated.id, tokenId: updated.loanNumber.toString() },
    });
    return updated;
  }

  async function sendDefault(loan: LoanRow, actorId: string | null): Promise<LoanRow | undefined> {
    const deployment = await chain.deployment();
    const receipt = await chain.send({
      signer: "originator",
      address: deployment.contracts.loanNote as Address,
      abi: loanNoteAbi,
      functionName: "markDefaulted",
      args: [loan.loanNumber],
    });
    return recordDefault(loan, actorId, receipt.transactionHash);
  }

  async function gracePeriod(): Promise<bigint> {
    const deployment = await chain.deployment();
    return BigInt((await chain.publicClient.readContract({ address: deployment.contracts.loanNote as Address, abi: loanNoteAbi, functionName: "gracePeriod" })) as bigint);
  }

  async function pass() {
    const result = { completed: 0, defaulted: 0 };
    const candidates = await repo.withStatus(["active", "defaulted"]);
    const watched = candidates.filter((l) => l.mintStatus === "minted");
    if (!watched.length) return result;
    const [now, grace] = await Promise.all([chain.now(), gracePeriod()]);
    for (const loan of watched) {
      try {
        const onChain = await origination.loanOnChain(loan.loanNumber);
        if (onChain.status === 2) {
          const done = await repo.transition(loan.id, inArray(loans.status, ["active", "defaulted"]), { status: "completed", completedAt: new Date(), listingStatus: "none" }, { action: "completed", notes: "Repaid in full on-chain" });
          if (done) {
            result.completed += 1;
            await notifier.notifyUser(done.userId, { type: "loan_status", title: "Loan Repaid", message: `Loan #${done.loanNumber} is fully repaid.`, link: `/loans/${done.id}` });
          }
        } else if (onChain.status === 3 && loan.status === "active") {
          if (await recordDefault(loan, null, null)) result.defaulted += 1;
        } else if (onChain.status === 1 && loan.status === "active") {
          const availableAt = onChain.start + BigInt(onChain.termMonths) * PERIOD_SECONDS + grace;
          if (now >= availableAt && (await sendDefault(loan, null))) result.defaulted += 1;
        }
      } catch (error) {
        deps.logger?.warn({ err: error, loanId: loan.id }, "loan watcher could not check a loan");
      }
    }
    return result;
  }

  return {
    async runOnce() {
      // One pass at a time: a slow chain must not stack passes that send the same default twice.
      while (running) await running.catch(() => {});
      const current = pass();
      running = current;
      try {
        return await current;
      } finally {
        running = undefined;
      }
    },

    async markDefaulted(loanId, actorId) {
      const loan = await repo.findById(loanId);
      if (!loan) throw notFound(LOAN_ANSWERS.notFound);
      if (loan.status !== "active" || loan.mintStatus !== "minted") throw conflict(LOAN_ANSWERS.notDefaultable);
      let onChain, now, grace;
      try {
        [onChain, now, grace] = await Promise.all([origination.loanOnChain(loan.loanNumber), chain.now(), gracePeriod()]);
      } catch (error) {
        throw new AppError(503, describeChainError(error).message);
      }
      if (onChain.status === 3) return (await recordDefault(loan, actorId, null)) ?? loan;
      if (onChain.status !== 1) throw conflict(LOAN_ANSWERS.notDefaultable);
      const availableAt = onChain.start + BigInt(onChain.termMonths) * PERIOD_SECONDS + grace;
      if (now < availableAt) throw conflict(LOAN_ANSWERS.defaultTooEarly(new Date(Number(availableAt) * 1000).toISOString()));
      try {
        return (await sendDefault(loan, actorId)) ?? ((await repo.findById(loanId)) as LoanRow);
      } catch (error) {
        throw new AppError(503, describeChainError(error).message);
      }
    },

    start(intervalMs = 60_000) {
      if (timer) return;
      timer = setInterval(() => {
        this.runOnce().catch((error) => deps.logger?.warn({ err: error }, "loan watcher pass failed"));
      }, intervalMs);
      timer.unref();
    },

    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}
