import { existsSync } from "node:fs";
import { chainNow } from "./chain/chainClock";
import { deploymentFeeParams } from "./chain/lateFeeParams";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import express, { type Express, type Router } from "express";
import helmet from "helmet";
import cors from "cors";
import { createConfiguredLogger, requestLogging } from "./logger";
import { createMetrics } from "./metrics";
import type { PublicClient } from "viem";
import type { AppDeps } from "./deps";
import { createChainClient } from "./chain/client";
import { errorHandler, notFoundHandler } from "./http/errors";
import { refuseUnstorableText } from "./http/storableText";
import { serveBuiltApp } from "./http/builtApp";
import { DEFAULT_RATE_LIMITS, scaleRateLimits, type RateLimits } from "./http/rateLimit";
import { createTokenService } from "./auth/tokens";
import { createAuthService } from "./auth/service";
import { createSiweService } from "./auth/siwe";
import { createAuthRouters } from "./auth/router";
import { createUsersRepository } from "./users/repository";
import { createUsersService } from "./users/service";
import { avatarFiles, createUsersRouter } from "./users/router";
import { AVATAR_ROUTE } from "./users/wire";
import { createContactRepository } from "./contact/repository";
import { createContactService } from "./contact/service";
import { createContactRouter } from "./contact/router";
import { createHealthRouter } from "./health/router";
import { createConfigRouter } from "./config/router";
import { createRpcRouter } from "./rpc/router";
import { createDevRouter } from "./dev/router";
import { createNotificationsRepository } from "./notifications/repository";
import { createNotificationsRouter } from "./notifications/router";
import { createNotifier } from "./notifications/service";
import { createLoanLifecycle } from "./loans/lifecycle";
import { createLoansRepository } from "./loans/repository";
import { createOrigination } from "./loans/origination";
import { createLoansService } from "./loans/service";
import { createLoansAdminRouter, createLoansRouter } from "./loans/router";
import { createChainGateway } from "./chain/gateway";
import { createKycRepository } from "./kyc/repository";
import { createKycService } from "./kyc/service";
import { createKycRouter } from "./kyc/router";
import { createTreasuryService } from "./treasury/service";
import { createTreasuryOffers } from "./treasury/offers";
import { createOrderAnnouncer } from "./orders/announce";
import { createLoanWatcher } from "./jobs/loanWatcher";
import { createReminderJob } from "./jobs/reminders";
import { createRemindersRepository } from "./jobs/remindersRepository";
import { createAdminRouter, createNftsAdminRouter } from "./admin/router";
import { createNftsRepository } from "./nfts/repository";
import { createNftsService } from "./nfts/service";
import { silentPublisher } from "./realtime/publisher";
import { noSocketSessions, type SocketSessions } from "./realtime/sessions";
import type { Metrics } from "./metrics";
import { createChatbotRouter } from "./chatbot/router";
import { createChatbotService } from "./chatbot/service";
import { createChatRepository } from "./chatbot/repository";
import { createChatUserData } from "./chatbot/userData";
import { createKnowledgeAnswerer } from "./chatbot/knowledgeAnswer";
import { deploymentFacts } from "./chatbot/deploymentFacts";
import { createFaucet } from "./dev/service";
import { createNftRouters } from "./nfts/router";
import { requireAuth } from "./http/auth";
import { createActivityRouter } from "./activity/router";
import { createActivityRepository } from "./activity/repository";
import { createActivityService } from "./activity/service";
import { createStatementsRepository } from "./statements/repository";
import { createStatementsService } from "./statements/service";
import { createStatementsRouters } from "./statements/router";
import { createDocsRouter } from "./openapi/router";
import { createOrdersRepository } from "./orders/repository";
import { createOrdersService } from "./orders/service";
import { createOrdersRouter } from "./orders/router";
import { createCollateralRepository } from "./collateral/repository";
import { createCollateralService } from "./collateral/service";
import { createCollateralRouters } from "./collateral/router";
import { createReconciliationRepository } from "./reconciliation/repository";
import { createReconciliationService } from "./reconciliation/service";
import { createReconciliationRouter } from "./reconciliation/router";

/** The built app (Vite output), served at / when present. */
export const DEFAULT_STATIC_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "../../app/dist");

/**
 * Every repository and service of one API process, each built once here and handed to whatever needs it
 * (routers, socket.io, the jobs): the one place that decides what talks to what.
 */
export function createServices(deps: AppDeps) {
  const { config, db, kv } = deps;
  const logger = deps.logger ?? createConfiguredLogger(config);
  const now = deps.now ?? (() => new Date());
  const limits: RateLimits = scaleRateLimits({ ...DEFAULT_RATE_LIMITS, ...deps.rateLimits }, config.rateLimitScale ?? 1);
  const publicClient: PublicClient = deps.publicClient ?? createChainClient(config);
  const publisher = deps.publisher ?? silentPublisher;

  const tokens = createTokenService(config.jwtSecret);
  const users = createUsersRepository(db);
  const contactMessages = createContactRepository(db);
  const notifications = createNotificationsRepository(db);
  const notifier = createNotifier({ db, publisher, repository: notifications });
  const chain = createChainGateway(config);
  /** The deployment's late-fee terms, read once from the chain: the mirror's figures need nothing more. */
  const lateFees = () => deploymentFeeParams({ publicClient, deployment: () => chain.deployment() });
  const loansRepo = createLoansRepository(db, config.chainId);
  const ordersRepo = createOrdersRepository(db, config.chainId);
  const announcer = createOrderAnnouncer({ db, kv, chainId: config.chainId, notifier, notifications, fees: lateFees });
  const orders = createOrdersService({ config, repo: ordersRepo, publicClient, announcer, logger, maxOpenOrders: limits.openOrders });
  const origination = createOrigination({ repo: loansRepo, chain, notifier, kv, logger, confirmations: config.confirmations, orders: ordersRepo, announcer });
  const collateral = createCollateralService({ repo: createCollateralRepository(db, config.chainId), loansRepo, chain, publicClient });
  const watcher = createLoanWatcher({ repo: loansRepo, chain, origination, confirmations: config.confirmations, logger });
  const reminders = createReminderJob({ repo: createRemindersRepository(db, config.chainId), chain, notifier, logger });
  return {
    // The basics and the pieces shared by several services, for the routers, socket.io and the tests.
    config,
    db,
    kv,
    logger,
    now,
    limits,
    publicClient,
    publisher,
    tokens,
    users,
    contactMessages,
    notifications,
    notifier,
    chain,
    origination,
    watcher,
    reminders,
    ordersRepo,
    orders,
    announcer,
    collateral,
    auth: createAuthService({ config, users, tokens, now }),
    siwe: createSiweService({ config, kv, publicClient, now }),
    usersService: createUsersService({ users, avatarDir: avatarDirOf(config) }),
    contact: createContactService({ messages: contactMessages }),
    loans: createLoansService({ db, repo: loansRepo, users, chain, origination, notifier, collateral, maxPendingRequests: limits.pendingLoanRequests }),
    kyc: createKycService({ repo: createKycRepository(db), users, notifier, dataDir: config.dataDir }),
    treasury: createTreasuryService({ repo: loansRepo, chain, origination, orders: ordersRepo, announcer, logger }),
    treasuryOffers: createTreasuryOffers({ chain, book: orders, orders: ordersRepo }),
    nfts: createNftsService({
      config,
      repo: createNftsRepository(db, config.chainId, () => chainNow(publicClient), lateFees),
      orders: ordersRepo,
      publicClient,
      maxMirrorWaiters: limits.mirrorWaiters,
    }),
    activity: createActivityService({ repo: createActivityRepository(db, config.chainId), now }),
    statements: createStatementsService({ repo: createStatementsRepository(db, config.chainId), publicClient, fees: lateFees }),
    reconciliation: createReconciliationService({ repo: createReconciliationRepository(db, config.chainId), publicClient, deployment: () => chain.deployment() }),
    loanLifecycle: createLoanLifecycle({ origination, watcher, reminders, reminderIntervalMs: config.reminderIntervalMs, logger }),
    chatbot: createChatbotService({
      repository: createChatRepository(db),
      userData: createChatUserData(db, config.chainId),
      knowledge: createKnowledgeAnswerer(),
      llm: config.llm,
      ...deploymentFacts(config.dataDir, config.chainId, publicClient),
      now,
      logger,
    }),
    // The faucet's key is a published dev key: it exists only on the local chain.
    faucet: config.isLocalChain ? createFaucet({ config, publicClient }) : null,
  };
}
export type Services = ReturnType<typeof createServices>;

const avatarDirOf = (config: Pick<AppDeps["config"], "dataDir">) => join(config.dataDir, "uploads", "avatars");

export interface CreateAppOptions {
  /** Ends the sockets a password change made stale; startServer passes socket.io's, an app alone has none. */
  sessions?: SocketSessions;
  /** Where the built app lives; defaults to app/dist. */
  staticDir?: string;
  /** "postgres" or "pglite", reported by /api/health. */
  databaseKind?: string;
}

export interface ApiApp {
  app: Express;
  metrics: Metrics;
  /** Every admin-only router with where it is mounted, so a test can walk their stacks. */
  adminRouters: { mount: string; router: Router }[];
}

/** The HTTP side: middleware, the routers over the services, the built app. */
export function createApp(services: Services, options: CreateAppOptions = {}): ApiApp {
  const { config, db, kv, logger, limits, publicClient } = services;
  const app = express();
  app.disable("x-powered-by");
  // Behind a load balancer req.ip (the rate-limit key) must come from X-Forwarded-For, but only from proxies we run.
  if (config.trustProxy !== undefined) app.set("trust proxy", config.trustProxy);
  // Over plain http (the local setup) HSTS and upgrade-insecure-requests would send browsers to an https that does not exist.
  const https = config.appOrigin.startsWith("https:");
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          // The wallet UI draws QR codes and avatars into blob: and data: images.
          "img-src": ["'self'", "data:", "blob:"],
          "connect-src": ["'self'"],
          "upgrade-insecure-requests": https ? [] : null,
        },
      },
      strictTransportSecurity: https,
    }),
  );
  app.use(requestLogging(logger));
  const metrics = createMetrics({ db, publicClient, chainId: config.chainId, confirmations: config.confirmations, token: config.metricsToken });
  app.use(metrics.http);
  app.get("/metrics", ...metrics.endpoint);
  app.use("/api", cors({ origin: config.appOrigin, credentials: true }));

  // Signed transactions (contract deployments) can be large: the RPC proxy gets its own body limit.
  app.use("/api/rpc", express.json({ limit: "2mb" }), createRpcRouter({ rpcUrl: config.rpcUrl, kv, limit: limits.rpc }));
  app.use(express.json({ limit: "100kb" }));
  app.use(refuseUnstorableText);

  const api = express.Router();
  const adminRouters = mountApi(app, api, services, options);
  app.use(AVATAR_ROUTE, avatarFiles(avatarDirOf(config)));
  app.use("/api", api, notFoundHandler);

  const staticDir = options.staticDir ?? DEFAULT_STATIC_DIR;
  app.use(serveBuiltApp(staticDir));
  // SPA fallback: every non-API path that is not a file gets the app, which routes on the client.
  app.get(/^\/(?!api(?:\/|$)).*/, (_req, res, next) => {
    const index = join(staticDir, "index.html");
    if (!existsSync(index)) return next();
    res.setHeader("Cache-Control", "no-cache");
    res.sendFile(index);
  });
  app.use(notFoundHandler);
  app.use(errorHandler(logger));
  return { app, metrics, adminRouters };
}

/** Mounts every /api router over the services; answers the admin-only ones. */
function mountApi(app: Express, api: Router, services: Services, options: CreateAppOptions): ApiApp["adminRouters"] {
  const { config, db, kv, now, limits, publicClient, tokens, users } = services;
  const auth = requireAuth(tokens, (id) => users.findById(id));
  const admin = createAdminRouter({
    db,
    config,
    auth,
    loans: services.loans,
    kyc: services.kyc,
    users,
    treasury: services.treasury,
    treasuryOffers: services.treasuryOffers,
    watcher: services.watcher,
    origination: services.origination,
    contact: services.contactMessages,
  });
  const loansAdmin = createLoansAdminRouter({ service: services.loans, auth });
  const nftsAdmin = createNftsAdminRouter({ db, config, auth });
  const collateral = createCollateralRouters({ service: services.collateral, auth });
  const statements = createStatementsRouters({ service: services.statements, auth });
  const reconciliation = createReconciliationRouter({ service: services.reconciliation, auth });
  // KYC, loans, admin and the treasury first, so /users/kyc is not taken by the profile routes.
  api.use("/users/kyc", createKycRouter({ service: services.kyc, users, tokens, kv, uploadLimit: limits.upload, appOrigin: config.appOrigin }));
  api.use("/loans", loansAdmin, collateral.loans, statements.loans, createLoansRouter({ service: services.loans, auth, kv, requestLimit: limits.loanRequest }));
  api.use("/admin", collateral.admin, reconciliation, admin);
  api.use("/nfts/admin", nftsAdmin);
  const nftRouters = createNftRouters({ service: services.nfts, orders: services.orders, tokens, users });
  api.use("/nfts", collateral.nfts, nftRouters.nfts);
  api.use("/collateral", collateral.collateral);
  api.use("/loans/marketplace", nftRouters.loansMarketplace);
  api.use("/orders", createOrdersRouter({ service: services.orders, repo: services.ordersRepo, tokens, users, kv, publishLimit: limits.orderPublish }));
  api.use("/activity", createActivityRouter({ service: services.activity, auth }));
  api.use("/portfolio", statements.portfolio);
  const sessions = options.sessions ?? noSocketSessions;
  const routers = createAuthRouters({ auth: services.auth, siwe: services.siwe, tokens, users, kv, limits, sessions, appOrigin: config.appOrigin, now });
  api.use("/auth", routers.auth);
  api.use("/simple-auth", routers.simpleAuth);
  api.use("/users", createUsersRouter({ service: services.usersService, users, tokens, kv, uploadLimit: limits.upload, appOrigin: config.appOrigin }));
  api.use("/contact", createContactRouter({ service: services.contact, messages: services.contactMessages, tokens, users, kv, limit: limits.contact }));
  api.use("/notifications", createNotificationsRouter({ repository: services.notifications, tokens, users }));
  api.use("/chatbot", createChatbotRouter({ service: services.chatbot, kv, tokens, users }));
  api.use("/health", createHealthRouter({ db, kv, publicClient, config, kind: options.databaseKind ?? "postgres" }));
  api.use("/config", createConfigRouter(config));
  api.use("/docs", createDocsRouter(app));
  if (services.faucet) api.use("/dev", createDevRouter({ faucet: services.faucet, kv, limits }));
  return [
    { mount: "/admin", router: admin },
    { mount: "/loans", router: loansAdmin },
    { mount: "/nfts/admin", router: nftsAdmin },
    { mount: "/admin", router: collateral.admin },
    { mount: "/admin", router: reconciliation },
  ];
}
