import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import { join, resolve } from "node:path";
import { z } from "zod";
import type { IndexerConfig } from "#domain/indexerConfig";
import { DEV_ACCOUNTS } from "#domain/devAccounts";
import { LOCAL_CHAIN_ID } from "#domain/deployment";
import { isPublishedDevKey } from "#domain/publishedDevKeys";
import type { LlmConfig } from "../chatbot/llm";

// Every message reads after the variable's name ("PORT must be …"); values are never echoed, as some are secrets.
const blankToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());
const withDefault = <T extends z.ZodType>(schema: T, fallback: z.input<T>) => z.preprocess(blankToUndefined, schema.default(fallback as never));
const wholeNumber = (min: number, max: number, message: string) => z.coerce.number({ error: message }).int({ error: message }).min(min, { error: message }).max(max, { error: message });
const httpUrl = (example: string) => z.url({ protocol: /^https?$/, error: `must be an http(s) URL such as ${example}` });
const privateKey = z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex private key");
const PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);
const proxyAddress = (part: string) => {
  const [address = "", bits, extra] = part.trim().split("/");
  const family = isIP(address);
  const maxBits = family === 6 ? 128 : 32;
  return PROXY_NAMES.has(part.trim()) || (family !== 0 && extra === undefined && (bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= maxBits)));
};
const trustProxy = z
  .string()
  .refine((value) => /^\d{1,2}$/.test(value) || value.split(",").every(proxyAddress), "must be a hop count (1) or proxy addresses such as loopback or 10.0.0.0/8, comma-separated");
const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** What both the API and the stand-alone indexer read: where the data is and which chain to follow. */
const sharedShape = {
  DATA_DIR: withDefault(z.string(), "./data"),
  DATABASE_URL: optional(z.string().regex(/^postgres(ql)?:\/\/\S+$/, "must be a postgres:// connection string")),
  RPC_URL: withDefault(httpUrl("http://127.0.0.1:8545"), "http://127.0.0.1:8545"),
  CHAIN_ID: withDefault(wholeNumber(1, Number.MAX_SAFE_INTEGER, "must be a positive whole number (31337 is the local chain)"), LOCAL_CHAIN_ID),
  CONFIRMATIONS: withDefault(wholeNumber(0, 10_000, "must be a whole number of blocks from 0 to 10000"), 0),
  // The node's WebSocket for new heads; a local anvil or Hardhat node's is found on its HTTP port without it.
  RPC_WS_URL: optional(z.url({ protocol: /^wss?$/, error: "must be a ws(s) URL such as wss://eth-mainnet.example/ws" })),
};

const envSchema = z.object({
  PORT: withDefault(wholeNumber(0, 65535, "must be a whole number between 0 and 65535"), 5001),
  ...sharedShape,
  REDIS_URL: optional(z.string().regex(/^rediss?:\/\/\S+$/, "must be a redis:// or rediss:// URL")),
  APP_ORIGIN: optional(httpUrl("http://localhost:5001")),
  JWT_SECRET: optional(z.string().min(32, "must be at least 32 characters")),
  ADMIN_INVITE_CODE: optional(z.string().min(8, "must be at least 8 characters")),
  ORIGINATOR_KEY: optional(privateKey),
  TREASURY_KEY: optional(privateKey),
  // Read by `npm run deploy`; checked here too, so a published key in the operator's environment stops every start.
  DEPLOYER_KEY: optional(privateKey),
  EXPLORER_URL: optional(httpUrl("https://etherscan.io")),
  LOG_LEVEL: withDefault(z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(", ")}` }), "info"),
  LOG_FILE: optional(z.string().min(1, "must be a file path")),
  RATE_LIMIT_SCALE: withDefault(z.coerce.number({ error: "must be a number above 0" }).positive("must be a number above 0"), 1),
  KV_PREFIX: withDefault(z.string().regex(/^[\w:.-]{1,64}$/, "must be 1 to 64 letters, digits, ':', '.', '_' or '-'"), "loanmint:"),
  SHUTDOWN_GRACE_MS: withDefault(wholeNumber(0, 600_000, "must be a whole number of milliseconds from 0 to 600000"), 8_000),
  REMINDER_INTERVAL_MS: withDefault(wholeNumber(100, 3_600_000, "must be a whole number of milliseconds from 100 to 3600000"), 60_000),
  TRUST_PROXY: optional(trustProxy),
  METRICS_TOKEN: optional(z.string().regex(/^[\x21-\x7e]{16,256}$/, "must be 16 to 256 printable characters without spaces")),
  LLM_BASE_URL: optional(httpUrl("https://api.openai.com/v1")),
  LLM_API_KEY: optional(z.string()),
  LLM_MODEL: withDefault(z.string(), "gpt-4o-mini"),
  LLM_TIMEOUT_MS: withDefault(wholeNumber(1000, 120_000, "must be a whole number of milliseconds from 1000 to 120000"), 20_000),
});

const indexerSchema = z.object({
  ...sharedShape,
  INDEXER_POLL_MS: withDefault(wholeNumber(0, 3_600_000, "must be a whole number of milliseconds from 0 to 3600000"), 1_000),
});

export interface AppConfig {
  port: number;
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  rpcUrl: string;
  chainId: number;
  isLocalChain: boolean;
  appOrigin: string;
  /** The SIWE domain: the host (and port) of APP_ORIGIN. */
  siweDomain: string;
  jwtSecret: string;
  adminInviteCode?: string;
  originatorKey?: `0x${string}`;
  treasuryKey?: `0x${string}`;
  explorerUrl?: string;
  confirmations: number;
  logLevel: string;
  /** Where every request and info line also goes (`npm start` sets data/logs/api.log); stdout then keeps LOG_LEVEL. */
  logFile?: string;
  /** Multiplies every rate limit's allowance (a private test stack raises them; production keeps 1). */
  rateLimitScale: number;
  /** Prefix of every key in Redis, so deployments or test runs sharing one Redis never share counters or nonces. */
  kvPrefix: string;
  /** How long a stop waits for requests in flight before cutting their connections. */
  shutdownGraceMs: number;
  /** How often the servicing reminder job looks at every loan with a note. */
  reminderIntervalMs: number;
  /** Which proxies' X-Forwarded-For Express believes (a hop count or addresses); unset trusts none, so a client cannot pick its rate-limit key. */
  trustProxy?: number | string[];
  /** Bearer token /metrics asks for; without one, /metrics answers loopback clients only. */
  metricsToken?: string;
  /** The chat assistant's optional model provider; undefined when LLM_BASE_URL is not set. */
  llm?: LlmConfig;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

function parse<T extends z.ZodType>(schema: T, source: NodeJS.ProcessEnv, moreProblems: string[] = []): z.output<T> {
  const parsed = schema.safeParse(source);
  if (!parsed.success || moreProblems.length > 0) {
    const issues = parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`);
    throw new ConfigError([...issues, ...moreProblems]);
  }
  return parsed.data;
}

const OPERATOR_KEYS = ["ORIGINATOR_KEY", "TREASURY_KEY", "DEPLOYER_KEY"] as const;

/**
 * Any chain but 31337 is real money: an operator key anyone can look up would hand the treasury to
 * whoever looks first. A CHAIN_ID that is not plainly 31337 (even a malformed one) counts as another chain.
 */
function publishedKeyProblems(source: NodeJS.ProcessEnv): string[] {
  const chainId = blankToUndefined(source.CHAIN_ID);
  if (chainId === undefined || Number(chainId) === LOCAL_CHAIN_ID) return [];
  return OPERATOR_KEYS.filter((name) => {
    const key = blankToUndefined(source[name]);
    return typeof key === "string" && isPublishedDevKey(key.trim());
  }).map((name) => `${name} is one of anvil's published dev keys, which anyone can sign with: off the local chain 31337 it must be a key of your own`);
}

/** Checks every variable without side effects; throws one ConfigError naming each bad setting. */
export function validateEnvironment(source: NodeJS.ProcessEnv = process.env): void {
  parse(envSchema, source, publishedKeyProblems(source));
}

/** Reads and checks the environment once; every bad setting is named with what it must be. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): AppConfig {
  const env = parse(envSchema, source, publishedKeyProblems(source));
  const dataDir = resolve(env.DATA_DIR);
  const appOrigin = new URL(env.APP_ORIGIN ?? `http://localhost:${env.PORT}`).origin;
  const isLocalChain = env.CHAIN_ID === LOCAL_CHAIN_ID;
  return {
    port: env.PORT,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL,
    rpcUrl: env.RPC_URL,
    chainId: env.CHAIN_ID,
    isLocalChain,
    appOrigin,
    siweDomain: new URL(appOrigin).host,
    jwtSecret: env.JWT_SECRET ?? jwtSecretFile(dataDir),
    adminInviteCode: env.ADMIN_INVITE_CODE,
    // The dev keys are public knowledge: defaulting to them anywhere but the local chain would be a gift to thieves.
    originatorKey: (env.ORIGINATOR_KEY ?? (isLocalChain ? DEV_ACCOUNTS.originator : undefined)) as `0x${string}` | undefined,
    treasuryKey: (env.TREASURY_KEY ?? (isLocalChain ? DEV_ACCOUNTS.treasury : undefined)) as `0x${string}` | undefined,
    explorerUrl: env.EXPLORER_URL,
    confirmations: env.CONFIRMATIONS,
    logLevel: env.LOG_LEVEL,
    logFile: env.LOG_FILE,
    rateLimitScale: env.RATE_LIMIT_SCALE,
    kvPrefix: env.KV_PREFIX,
    shutdownGraceMs: env.SHUTDOWN_GRACE_MS,
    reminderIntervalMs: env.REMINDER_INTERVAL_MS,
    trustProxy: env.TRUST_PROXY === undefined ? undefined : /^\d+$/.test(env.TRUST_PROXY) ? Number(env.TRUST_PROXY) : env.TRUST_PROXY.split(",").map((part) => part.trim()),
    metricsToken: env.METRICS_TOKEN,
    llm: env.LLM_BASE_URL ? { baseUrl: env.LLM_BASE_URL.replace(/\/+$/, ""), apiKey: env.LLM_API_KEY, model: env.LLM_MODEL, timeoutMs: env.LLM_TIMEOUT_MS } : undefined,
  };
}

/** What `npm run indexer` reads: the API's variables it shares, with the same checks and defaults. */
export function loadIndexerConfig(source: NodeJS.ProcessEnv = process.env): IndexerConfig {
  const env = parse(indexerSchema, source);
  return {
    databaseUrl: env.DATABASE_URL,
    dataDir: resolve(env.DATA_DIR),
    rpcUrl: env.RPC_URL,
    chainId: env.CHAIN_ID,
    confirmations: env.CONFIRMATIONS,
    pollIntervalMs: env.INDEXER_POLL_MS,
    headsUrl: env.RPC_WS_URL,
  };
}

/** Embedded mode: a secret generated once and kept in DATA_DIR, so sessions survive restarts. */
function jwtSecretFile(dataDir: string): string {
  const file = join(dataDir, "jwt-secret");
  if (existsSync(file)) {
    const secret = readFileSync(file, "utf8").trim();
    if (secret.length >= 32) return secret;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
