import { SERVER_EVENTS } from "#domain/events";
import type { LoanWatcher } from "../jobs/loanWatcher";
import type { Origination } from "./origination";

interface Logger {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
}

export interface LoanLifecycleDeps {
  origination: Pick<Origination, "reconcileAll" | "relistAfterRepayments">;
  watcher: Pick<LoanWatcher, "start" | "stop">;
  logger?: Logger;
}

/** The loan jobs of one API process: what startServer starts after listening and stops on close. */
export interface LoanLifecycle {
  /** The start-up reconciliation (in the background: a chain that is down must not stop the API) and the defaults job. */
  startJobs(options?: { watchIntervalMs?: number }): Promise<void>;
  /**
   * Told of the indexer's outbox rows as they are delivered: a listing lapsed by a repayment may be the treasury's,
   * listed again at once (the loan job catches up on what a crash lost). Nothing while the jobs are stopped.
   */
  onChainEvents(rows: { event: string; payload: unknown }[]): void;
  stop(): void;
}

/**
 * Starts and stops the loan jobs over services built by the composition root (api/src/app.ts). A loan's
 * chain-derived status (active, completed, defaulted) is the indexer's to set (indexer/loans.ts).
 */
export function createLoanLifecycle(deps: LoanLifecycleDeps): LoanLifecycle {
  const { origination, watcher, logger } = deps;
  let stopped = false;
  let relisting: Promise<unknown> | null = null;
  let relistAgain = false;

  /** One relisting pass at a time in this process; a prompt meanwhile runs one more after it. */
  function relistSoon(): void {
    if (relisting) {
      relistAgain = true;
      return;
    }
    relistAgain = false;
    relisting = origination
      .relistAfterRepayments()
      .catch((error) => logger?.warn({ err: error }, "could not list the treasury's lapsed notes again; the loan job retries"))
      .finally(() => {
        relisting = null;
        if (relistAgain && !stopped) relistSoon();
      });
  }

  return {
    async startJobs(options = {}) {
      stopped = false;
      watcher.start(options.watchIntervalMs ?? 60_000);
      try {
        const result = await origination.reconcileAll();
        if (!stopped && (result.minted || result.failed || result.listed)) logger?.info(result, "loans reconciled with the chain");
      } catch (error) {
        if (!stopped) logger?.warn({ err: error }, "start-up reconciliation could not reach the chain; loans stay as they are");
      }
    },
    onChainEvents(rows) {
      const lapsedByRepayment = rows.some((row) => row.event === SERVER_EVENTS.marketplaceUpdate && (row.payload as { lapsed?: string }).lapsed === "repaid");
      if (lapsedByRepayment && !stopped) relistSoon();
    },
    stop() {
      stopped = true;
      watcher.stop();
    },
  };
}
