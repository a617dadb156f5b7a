import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { z } from "zod";
import { DEV_ACCOUNTS } from "../../../domain/devAccounts";
import { LOCAL_CHAIN_ID } from "../../../domain/deployment";

const privateKey = z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex private key");
const blankToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());

const envSchema = z.object({
  PORT: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).max(65535).default(5001)),
  DATA_DIR: z.preprocess(blankToUndefined, z.string().default("./data")),
  DATABASE_URL: optional(z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// connection string")),
  REDIS_URL: optional(z.string().regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL")),
  RPC_URL: z.preprocess(blankToUndefined, z.url("must be an http(s) URL").default("http://127.0.0.1:8545")),
  CHAIN_ID: z.preprocess(blankToUndefined, z.coerce.number().int().positive("must be a positive integer").default(LOCAL_CHAIN_ID)),
  APP_ORIGIN: optional(z.url("must be an origin such as http://localhost:5001")),
  JWT_SECRET: optional(z.string().min(32, "must be at least 32 characters")),
  ADMIN_INVITE_CODE: optional(z.string().min(8, "must be at least 8 characters")),
  ORIGINATOR_KEY: optional(privateKey),
  TREASURY_KEY: optional(privateKey),
  EXPLORER_URL: optional(z.url("must be an http(s) URL")),
  CONFIRMATIONS: z.preprocess(blankToUndefined, z.coerce.number().int().min(0, "must be 0 or more").default(0)),
  LOG_LEVEL: z.preprocess(blankToUndefined, z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info")),
  RATE_LIMIT_SCALE: z.preprocess(blankToUndefined, z.coerce.number().positive("must be a number above 0").default(1)),
  KV_PREFIX: z.preprocess(blankToUndefined, z.string().regex(/^[\w:.-]{1,64}$/, "must be 1 to 64 letters, digits, ':', '.', '_' or '-'").default("loanmint:")),
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
  /** Multiplies every rate limit's allowance (a private test stack raises them; production keeps 1). */
  rateLimitScale: number;
  /** Prefix of every key in Redis, so deployments or test runs sharing one Redis never share counters or nonces. */
  kvPrefix: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Reads and checks the environment once; every bad setting is named with what it must be. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`));
  }
  const env = parsed.data;
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
    rateLimitScale: env.RATE_LIMIT_SCALE,
    kvPrefix: env.KV_PREFIX,
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
