import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import express, { type Express } from "express";
import helmet from "helmet";
import cors from "cors";
import { createLogger, requestLogging } from "./logger";
import { createMetrics } from "./metrics";
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
import { silentPublisher } from "./realtime/publisher";
import { noSocketSessions } from "./realtime/sessions";
import { createChatbotRouter } from "./chatbot/router";
import { createNftRouters } from "./nfts/router";
import { requireAuth } from "./http/auth";
import { createActivityRouter } from "./activity/router";
import { createActivityRepository } from "./activity/repository";
import { createActivityService } from "./activity/service";
import { createDocsRouter } from "./openapi/router";

/** The built app (Vite output), served at / when present. */
export const DEFAULT_STATIC_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "../../app/dist");

export interface CreateAppOptions extends AppDeps {
  /** Where the built app lives; defaults to app/dist. */
  staticDir?: string;
  /** "postgres" or "pglite", reported by /api/health. */
  databaseKind?: string;
}

export function createApp(deps: CreateAppOptions): Express {
  const { config, db, kv } = deps;
  const logger = deps.logger ?? createLogger(config.logLevel);
  const now = deps.now ?? (() => new Date());
  const limits: RateLimits = scaleRateLimits({ ...DEFAULT_RATE_LIMITS, ...deps.rateLimits }, config.rateLimitScale ?? 1);
  const publicClient = deps.publicClient ?? createChainClient(config);
  const avatarDir = join(config.dataDir, "uploads", "avatars");

  const tokens = createTokenService(config.jwtSecret);
  const users = createUsersRepository(db);
  const auth = createAuthService({ config, users, tokens, now });
  const siwe = createSiweService({ config, kv, publicClient, now });
  const contactMessages = createContactRepository(db);
  const notifications = createNotificationsRepository(db);
  // Services that decide something take `notifier`; without startServer's socket.io it still stores the rows.
  const notifier = deps.notifier ?? createNotifier({ db, publisher: silentPublisher, repository: notifications });

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
  app.locals.metrics = metrics;
  app.use(metrics.http);
  app.get("/metrics", ...metrics.endpoint);
  app.use("/api", cors({ origin: config.appOrigin, credentials: true }));

  // Signed transactions (contract deployments) can be large: the RPC proxy gets its own body limit.
  app.use("/api/rpc", express.json({ limit: "2mb" }), createRpcRouter({ rpcUrl: config.rpcUrl, kv, limit: limits.rpc }));
  app.use(express.json({ limit: "100kb" }));
  app.use(refuseUnstorableText);

  const api = express.Router();
  // KYC, loans, admin and the treasury; mounted first so /users/kyc is not taken by the profile routes.
  const lifecycle = createLoanLifecycle({ db, config, kv, notifier, users, tokens, contact: contactMessages, limits, logger });
  app.locals.loanLifecycle = lifecycle;
  lifecycle.mount(api);
  const nftRouters = createNftRouters({ db, config, publicClient, tokens, users, maxMirrorWaiters: limits.mirrorWaiters });
  api.use("/nfts", nftRouters.nfts);
  api.use("/loans/marketplace", nftRouters.loansMarketplace);
  api.use("/activity", createActivityRouter({ service: createActivityService({ repo: createActivityRepository(db, config.chainId), now }), auth: requireAuth(tokens, (id) => users.findById(id)) }));
  const sessions = deps.sessions ?? noSocketSessions;
  const routers = createAuthRouters({ auth, siwe, tokens, users, kv, limits, sessions, appOrigin: config.appOrigin, now });
  api.use("/auth", routers.auth);
  api.use("/simple-auth", routers.simpleAuth);
  api.use(
    "/users",
    createUsersRouter({
      service: createUsersService({ users, avatarDir }),
      users,
      tokens,
      kv,
      uploadLimit: limits.upload,
      appOrigin: config.appOrigin,
    }),
  );
  api.use("/contact", createContactRouter({ service: createContactService({ messages: contactMessages }), messages: contactMessages, tokens, users, kv, limit: limits.contact }));
  api.use("/notifications", createNotificationsRouter({ repository: notifications, tokens, users }));
  api.use("/chatbot", createChatbotRouter({ db, kv, tokens, users, chainId: config.chainId, dataDir: config.dataDir, publicClient, llm: config.llm, now, logger }));
  api.use("/health", createHealthRouter({ db, kv, publicClient, config, kind: deps.databaseKind ?? "postgres" }));
  api.use("/config", createConfigRouter(config));
  api.use("/docs", createDocsRouter(app));
  if (config.isLocalChain) api.use("/dev", createDevRouter({ config, publicClient, kv, limits }));
  app.use(AVATAR_ROUTE, avatarFiles(avatarDir));
  app.use("/api", api, notFoundHandler);

  const staticDir = deps.staticDir ?? DEFAULT_STATIC_DIR;
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
  return app;
}
