import type { Request, RequestHandler } from "express";
import type { KeyValueStore } from "../kv/store";
import { AppError, MESSAGES } from "./errors";

export interface RateLimitRule {
  /** Requests allowed per window. */
  max: number;
  windowMs: number;
}

export interface RateLimitOptions extends RateLimitRule {
  name: string;
  /** What is counted: the client's IP by default; e.g. IP + email for logins. */
  key?: (req: Request) => string | undefined;
  /** The 429's message, when a clearer one than the generic 'Too many requests' exists. */
  message?: string;
}

/** A fixed-window limit counted in the key-value store, so several API processes share it through Redis. */
export function rateLimit(kv: KeyValueStore, options: RateLimitOptions): RequestHandler {
  return async (req, res, next) => {
    const subject = options.key?.(req) ?? req.ip ?? "unknown";
    const { count, ttlMs } = await kv.increment(`rl:${options.name}:${subject}`, options.windowMs);
    res.setHeader("RateLimit-Limit", String(options.max));
    res.setHeader("RateLimit-Remaining", String(Math.max(0, options.max - count)));
    res.setHeader("RateLimit-Reset", String(Math.ceil(Math.max(0, ttlMs) / 1000)));
    if (count > options.max) {
      res.setHeader("Retry-After", String(Math.ceil(Math.max(0, ttlMs) / 1000)));
      throw new AppError(429, options.message ?? MESSAGES.tooMany);
    }
    next();
  };
}

export interface RateLimits {
  login: RateLimitRule;
  register: RateLimitRule;
  wallet: RateLimitRule;
  rpc: RateLimitRule;
  /** Faucet drips per funded address. */
  faucet: RateLimitRule;
  /** Faucet drips per client address, whatever address they ask to fund. */
  faucetClient: RateLimitRule;
  /** Faucet drips of the whole faucet (one key), its budget per window. */
  faucetBudget: RateLimitRule;
  contact: RateLimitRule;
  upload: RateLimitRule;
  /** Loan requests per borrower (keyed by user, not address). */
  loanRequest: RateLimitRule;
  /** A cap, not a window: how many requests one borrower may have awaiting review at once. */
  pendingLoanRequests: number;
  /** A cap per API process: how many `GET /nfts/mirror?minBlock=` may wait for the indexer at once. */
  mirrorWaiters: number;
  /** Orders per user, counted for the typed-data route and for publishing each on its own (a publish needs both). */
  orderPublish: RateLimitRule;
  /** A cap, not a window: how many unexpired orders one signer may have that could still fill. */
  openOrders: number;
}

export const DEFAULT_RATE_LIMITS: RateLimits = {
  login: { max: 10, windowMs: 15 * 60_000 },
  register: { max: 20, windowMs: 60 * 60_000 },
  wallet: { max: 30, windowMs: 15 * 60_000 },
  rpc: { max: 1200, windowMs: 60_000 },
  faucet: { max: 3, windowMs: 60 * 60_000 },
  faucetClient: { max: 10, windowMs: 60 * 60_000 },
  faucetBudget: { max: 60, windowMs: 60 * 60_000 },
  contact: { max: 10, windowMs: 60 * 60_000 },
  upload: { max: 30, windowMs: 60 * 60_000 },
  loanRequest: { max: 10, windowMs: 60 * 60_000 },
  pendingLoanRequests: 3,
  mirrorWaiters: 50,
  orderPublish: { max: 30, windowMs: 60_000 },
  openOrders: 200,
};

/** Every rule's allowance and every cap multiplied by `scale` (RATE_LIMIT_SCALE); windows stay as they are. */
export function scaleRateLimits(limits: RateLimits, scale: number): RateLimits {
  if (scale === 1) return limits;
  const scaled = (max: number) => Math.max(1, Math.round(max * scale));
  return Object.fromEntries(Object.entries(limits).map(([name, rule]) => [name, typeof rule === "number" ? scaled(rule) : { ...rule, max: scaled(rule.max) }])) as unknown as RateLimits;
}
