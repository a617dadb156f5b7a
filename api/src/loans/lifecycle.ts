import type { LoanWatcher } from "../jobs/loanWatcher";
import type { ReminderJob } from "../jobs/reminders";
import type { Origination } from "./origination";

interface Logger {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
}

export interface LoanLifecycleDeps {
  origination: Pick<Origination, "reconcileAll">;
  watcher: Pick<LoanWatcher, "start" | "stop">;
  /** The servicing reminders, started beside the defaults job (absent where a caller builds its own lifecycle). */
  reminders?: Pick<ReminderJob, "start" | "stop">;
  reminderIntervalMs?: number;
  logger?: Logger;
}

/** The loan jobs of one API process: what startServer starts after listening and stops on close. */
export interface LoanLifecycle {
  /** The start-up reconciliation (in the background: a chain that is down must not stop the API), the defaults job and the reminder job. */
  startJobs(options?: { watchIntervalMs?: number; reminderIntervalMs?: number }): Promise<void>;
  stop(): void;
}

/**
 * Starts and stops the loan jobs over services built by the composition root (api/src/app.ts). A loan's
 * chain-derived status (active, completed, defaulted) is the indexer's to set (indexer/loans.ts). Nothing follows
 * repayments here: the treasury's listing at par stays valid across them.
 */
export function createLoanLifecycle(deps: LoanLifecycleDeps): LoanLifecycle {
  const { origination, watcher, logger } = deps;
  let stopped = false;

  return {
    async startJobs(options = {}) {
      stopped = false;
      watcher.start(options.watchIntervalMs ?? 60_000);
      deps.reminders?.start(options.reminderIntervalMs ?? deps.reminderIntervalMs ?? 60_000);
      try {
        const result = await origination.reconcileAll();
        if (!stopped && (result.minted || result.failed || result.listed)) logger?.info(result, "loans reconciled with the chain");
      } catch (error) {
        if (!stopped) logger?.warn({ err: error }, "start-up reconciliation could not reach the chain; loans stay as they are");
      }
    },
    stop() {
      stopped = true;
      watcher.stop();
      deps.reminders?.stop();
    },
  };
}
