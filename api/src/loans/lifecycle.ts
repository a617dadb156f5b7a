import type { Router } from "express";
import type { Db } from "#db/connect";
import type { AppConfig } from "../config/env";
import type { KeyValueStore } from "../kv/store";
import type { Notifier } from "../notifications/notifier";
import type { UsersRepository } from "../users/repository";
import type { TokenService } from "../auth/tokens";
import type { ContactRepository } from "../contact/repository";
import type { RateLimits } from "../http/rateLimit";
import { SERVER_EVENTS } from "#domain/events";
import { requireAuth } from "../http/auth";
import { createKycRepository } from "../kyc/repository";
import { createKycService } from "../kyc/service";
import { createKycRouter } from "../kyc/router";
import { createTreasuryService } from "../treasury/service";
import { createLoanWatcher, type LoanWatcher } from "../jobs/loanWatcher";
import { createAdminRouter, createNftsAdminRouter } from "../admin/router";
import { createChainGateway, type ChainGateway } from "../chain/gateway";
import { createOrigination, type Origination } from "./origination";
import { createLoansRepository } from "./repository";
import { createLoansService, type LoansService } from "./service";
import { createLoansAdminRouter, createLoansRouter } from "./router";

interface Logger {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

export interface LoanLifecycleDeps {
  db: Db;
  config: AppConfig;
  kv: KeyValueStore;
  notifier: Notifier;
  users: UsersRepository;
  tokens: TokenService;
  contact: ContactRepository;
  limits: Pick<RateLimits, "upload" | "loanRequest" | "pendingLoanRequests">;
  logger?: Logger;
}

export interface LoanLifecycle {
  chain: ChainGateway;
  origination: Origination;
  loans: LoansService;
  watcher: LoanWatcher;
  /** Every admin-only router with where it is mounted, so a test can walk their stacks. */
  adminRouters: { mount: string; router: Router }[];
  /** Mounts KYC, loans, admin and /nfts/admin on the /api router; call before /users so /users/kyc is ours. */
  mount(api: Router): void;
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
 * KYC, loan requests, approval that funds, mints and lists, retries, defaults and the treasury, built once. A loan's
 * chain-derived status (active, completed, defaulted) is the indexer's to set (indexer/loans.ts).
 */
export function createLoanLifecycle(deps: LoanLifecycleDeps): LoanLifecycle {
  const { db, config, kv, notifier, users, tokens, logger } = deps;
  const auth = requireAuth(tokens, (id) => users.findById(id));
  const chain = createChainGateway(config);
  const repo = createLoansRepository(db, config.chainId);
  const origination = createOrigination({ repo, chain, notifier, kv, logger, confirmations: config.confirmations });
  const loans = createLoansService({ db, repo, users, chain, origination, notifier, maxPendingRequests: deps.limits.pendingLoanRequests });
  const kycRepo = createKycRepository(db);
  const kyc = createKycService({ repo: kycRepo, users, notifier, dataDir: config.dataDir });
  const treasury = createTreasuryService({ repo, chain, origination });
  const watcher = createLoanWatcher({ repo, chain, origination, confirmations: config.confirmations, logger });

  const adminRouter = createAdminRouter({ db, config, auth, loans, kyc, users, treasury, watcher, origination, contact: deps.contact });
  const loansAdminRouter = createLoansAdminRouter({ service: loans, auth });
  const nftsAdminRouter = createNftsAdminRouter({ db, config, auth });
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
    chain,
    origination,
    loans,
    watcher,
    adminRouters: [
      { mount: "/admin", router: adminRouter },
      { mount: "/loans", router: loansAdminRouter },
      { mount: "/nfts/admin", router: nftsAdminRouter },
    ],
    mount(api) {
      api.use("/users/kyc", createKycRouter({ service: kyc, users, tokens, kv, uploadLimit: deps.limits.upload, appOrigin: config.appOrigin }));
      api.use("/loans", loansAdminRouter, createLoansRouter({ service: loans, auth, kv, requestLimit: deps.limits.loanRequest }));
      api.use("/admin", adminRouter);
      api.use("/nfts/admin", nftsAdminRouter);
    },
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
