import { Router, type Request } from "express";
import { changePasswordRequestSchema, loginRequestSchema, registerRequestSchema, walletConnectRequestSchema, walletVerifyRequestSchema } from "#domain/schemas/auth";
import { ok } from "../http/envelope";
import { validate } from "../http/validate";
import { currentUser, optionalAuth, requireAuth } from "../http/auth";
import { rateLimit, type RateLimits } from "../http/rateLimit";
import type { KeyValueStore } from "../kv/store";
import type { SocketSessions } from "../realtime/sessions";
import type { UsersRepository } from "../users/repository";
import { toWireUser } from "../users/wire";
import { AUTH_ANSWERS, type AuthService } from "./service";
import { SIWE_ANSWERS, type SiweService } from "./siwe";
import type { TokenService } from "./tokens";
import { createWalletAccounts } from "./wallets";

interface AuthRouterDeps {
  auth: AuthService;
  siwe: SiweService;
  tokens: TokenService;
  users: UsersRepository;
  kv: KeyValueStore;
  limits: RateLimits;
  sessions: SocketSessions;
  appOrigin: string;
  now: () => Date;
}

/** /auth/* and the /simple-auth/* aliases. */
export function createAuthRouters(deps: AuthRouterDeps): { auth: Router; simpleAuth: Router } {
  const { auth, siwe, tokens, users, kv, limits, sessions, appOrigin } = deps;
  const findUser = (id: string) => users.findById(id);
  const wire = (user: Parameters<typeof toWireUser>[0]) => toWireUser(user, appOrigin);
  const wallets = createWalletAccounts({ users, now: deps.now });
  // Runs before validation: an email that is not a string (an object whose toString is not a function) keys as none.
  const emailKey = (req: Request) => `${req.ip}:${typeof req.body?.email === "string" ? req.body.email.trim().toLowerCase() : ""}`;

  const loginLimit = rateLimit(kv, { name: "login", ...limits.login, key: emailKey });
  // Guessing across many emails from one address is capped too, more loosely.
  const loginAddressLimit = rateLimit(kv, { name: "login-ip", max: limits.login.max * 10, windowMs: limits.login.windowMs });
  const registerLimit = rateLimit(kv, { name: "register", ...limits.register });
  const walletLimit = rateLimit(kv, { name: "wallet", ...limits.wallet });

  const register = [
    registerLimit,
    validate(registerRequestSchema),
    async (req: Request, res: Parameters<typeof ok>[0]) => {
      const { user, token } = await auth.register(req.body);
      ok(res, { user: wire(user), token }, `${AUTH_ANSWERS.registered}! Welcome, ${user.firstName}`, 201);
    },
  ];
  const login = [
    loginAddressLimit,
    loginLimit,
    validate(loginRequestSchema),
    async (req: Request, res: Parameters<typeof ok>[0]) => {
      const { user, token } = await auth.login(req.body);
      ok(res, { user: wire(user), token }, `Welcome back, ${user.firstName}`);
    },
  ];

  const router = Router();
  router.post("/register", ...register);
  router.post("/login", ...login);

  router.get("/me", requireAuth(tokens, findUser), (req, res) => {
    ok(res, { user: wire(currentUser(req)) });
  });

  router.put("/change-password", requireAuth(tokens, findUser), validate(changePasswordRequestSchema), async (req, res) => {
    // Earlier tokens stop working, and so do the sockets opened with them; this session carries on with a fresh one.
    const updated = await auth.changePassword(currentUser(req), req.body);
    sessions.endStale(updated.id, tokens.stamp(updated));
    ok(res, { token: await tokens.issue(updated) }, AUTH_ANSWERS.passwordChanged);
  });

  router.post("/wallet/connect", walletLimit, validate(walletConnectRequestSchema), async (req, res) => {
    ok(res, await siwe.issue(req.body.walletAddress), SIWE_ANSWERS.issued);
  });

  // Without a bearer token: sign in (or create a wallet user); with one: link the wallet to that account.
  router.post("/wallet/verify", walletLimit, optionalAuth(tokens, findUser), validate(walletVerifyRequestSchema), async (req, res) => {
    const address = await siwe.verify(req.body);
    const outcome = req.user ? await wallets.link(req.user, address) : await wallets.signIn(address);
    const token = await tokens.issue(outcome.user);
    ok(res, { user: wire(outcome.user), token }, outcome.message);
  });

  const simpleAuth = Router();
  simpleAuth.post("/login", ...login);
  simpleAuth.post("/signup", ...register);

  return { auth: router, simpleAuth };
}
