import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generatePrivateKey } from "viem/accounts";
import { ConfigError, loadConfig, loadIndexerConfig, validateEnvironment } from "./env";
import { DEV_ACCOUNTS } from "#domain/devAccounts";
import { PUBLISHED_DEV_ACCOUNTS } from "#domain/publishedDevKeys";

test("defaults give the embedded local setup and a JWT secret generated once into DATA_DIR", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "lm-env-"));
  try {
    const config = loadConfig({ DATA_DIR: dataDir });
    assert.equal(config.port, 5001);
    assert.equal(config.appOrigin, "http://localhost:5001");
    assert.equal(config.siweDomain, "localhost:5001");
    assert.equal(config.chainId, 31337);
    assert.equal(config.originatorKey, DEV_ACCOUNTS.originator);
    assert.equal(config.treasuryKey, DEV_ACCOUNTS.treasury);
    assert.equal(config.adminInviteCode, undefined);
    assert.equal(readFileSync(join(dataDir, "jwt-secret"), "utf8"), config.jwtSecret);
    assert.equal(loadConfig({ DATA_DIR: dataDir }).jwtSecret, config.jwtSecret);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test("dev keys are never the default on another chain", () => {
  const config = loadConfig({ CHAIN_ID: "1", JWT_SECRET: "x".repeat(32) });
  assert.equal(config.originatorKey, undefined);
  assert.equal(config.treasuryKey, undefined);
  assert.equal(config.isLocalChain, false);
});

test("off the local chain a published dev key as an operator key is one problem line each, beside the others, never echoed", () => {
  const error = (() => {
    try {
      loadConfig({
        CHAIN_ID: "84532",
        JWT_SECRET: "x".repeat(32),
        PORT: "http",
        ORIGINATOR_KEY: DEV_ACCOUNTS.originator,
        TREASURY_KEY: PUBLISHED_DEV_ACCOUNTS[19].key,
        DEPLOYER_KEY: DEV_ACCOUNTS.deployer.toUpperCase().replace("0X", "0x"),
      });
      return undefined;
    } catch (caught) {
      return caught;
    }
  })();
  assert.ok(error instanceof ConfigError);
  const why = "is one of anvil's published dev keys, which anyone can sign with: off the local chain 31337 it must be a key of your own";
  assert.deepEqual(error.problems, ["PORT must be a whole number between 0 and 65535", `ORIGINATOR_KEY ${why}`, `TREASURY_KEY ${why}`, `DEPLOYER_KEY ${why}`]);
  assert.ok(!error.message.toLowerCase().includes(DEV_ACCOUNTS.deployer.slice(2)), "a key is never printed");
  assert.throws(() => validateEnvironment({ CHAIN_ID: "1", TREASURY_KEY: DEV_ACCOUNTS.treasury }), /TREASURY_KEY is one of anvil's published dev keys/);
  assert.throws(
    () => loadConfig({ CHAIN_ID: "mainnet", JWT_SECRET: "x".repeat(32), ORIGINATOR_KEY: DEV_ACCOUNTS.originator }),
    /ORIGINATOR_KEY is one of/,
    "a malformed CHAIN_ID is not the local chain",
  );
  const fresh = generatePrivateKey();
  assert.equal(loadConfig({ CHAIN_ID: "84532", JWT_SECRET: "x".repeat(32), ORIGINATOR_KEY: fresh, DEPLOYER_KEY: generatePrivateKey() }).originatorKey, fresh);
  assert.equal(
    loadConfig({ JWT_SECRET: "x".repeat(32), ORIGINATOR_KEY: DEV_ACCOUNTS.originator, DEPLOYER_KEY: DEV_ACCOUNTS.deployer }).originatorKey,
    DEV_ACCOUNTS.originator,
    "the local chain keeps its dev keys",
  );
});

test("every bad setting is named with what it must be", () => {
  try {
    loadConfig({ PORT: "port", DATABASE_URL: "mysql://x", JWT_SECRET: "short", ORIGINATOR_KEY: "0x12" });
    assert.fail("expected a ConfigError");
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    const text = error.message;
    assert.match(text, /PORT/);
    assert.match(text, /DATABASE_URL must be a postgres:\/\/ connection string/);
    assert.match(text, /JWT_SECRET must be at least 32 characters/);
    assert.match(text, /ORIGINATOR_KEY must be a 0x-prefixed 32-byte hex private key/);
  }
});

test("rate limits scale and Redis keys carry a prefix, both checked", () => {
  const config = loadConfig({ JWT_SECRET: "x".repeat(32), RATE_LIMIT_SCALE: "2.5", KV_PREFIX: "run-7:" });
  assert.equal(config.rateLimitScale, 2.5);
  assert.equal(config.kvPrefix, "run-7:");
  assert.equal(loadConfig({ JWT_SECRET: "x".repeat(32) }).kvPrefix, "loanmint:");
  assert.throws(() => loadConfig({ JWT_SECRET: "x".repeat(32), RATE_LIMIT_SCALE: "0" }), /RATE_LIMIT_SCALE must be a number above 0/);
  assert.throws(() => loadConfig({ JWT_SECRET: "x".repeat(32), KV_PREFIX: "bad prefix" }), /KV_PREFIX must be 1 to 64/);
});

test("every wrong setting is listed at once, each saying what it must be, and no value is echoed", () => {
  const wrong = {
    PORT: "http",
    CHAIN_ID: "-1",
    CONFIRMATIONS: "two",
    RPC_URL: "ftp://node",
    APP_ORIGIN: "localhost",
    LOG_LEVEL: "loud",
    RATE_LIMIT_SCALE: "none",
    METRICS_TOKEN: "sesame",
    LLM_BASE_URL: "javascript:alert(1)",
    LLM_TIMEOUT_MS: "5",
    REDIS_URL: "127.0.0.1:6379",
    EXPLORER_URL: "etherscan",
    SHUTDOWN_GRACE_MS: "soon",
    REMINDER_INTERVAL_MS: "10",
  };
  const error = (() => {
    try {
      loadConfig({ ...wrong, JWT_SECRET: "x".repeat(32) });
      return undefined;
    } catch (caught) {
      return caught;
    }
  })();
  assert.ok(error instanceof ConfigError);
  assert.deepEqual(
    new Set(error.problems),
    new Set([
      "PORT must be a whole number between 0 and 65535",
      "CHAIN_ID must be a positive whole number (31337 is the local chain)",
      "CONFIRMATIONS must be a whole number of blocks from 0 to 10000",
      "RPC_URL must be an http(s) URL such as http://127.0.0.1:8545",
      "APP_ORIGIN must be an http(s) URL such as http://localhost:5001",
      "LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent",
      "RATE_LIMIT_SCALE must be a number above 0",
      "METRICS_TOKEN must be 16 to 256 printable characters without spaces",
      "LLM_BASE_URL must be an http(s) URL such as https://api.openai.com/v1",
      "LLM_TIMEOUT_MS must be a whole number of milliseconds from 1000 to 120000",
      "REDIS_URL must be a redis:// or rediss:// URL",
      "EXPLORER_URL must be an http(s) URL such as https://etherscan.io",
      "SHUTDOWN_GRACE_MS must be a whole number of milliseconds from 0 to 600000",
      "REMINDER_INTERVAL_MS must be a whole number of milliseconds from 100 to 3600000",
    ]),
  );
  assert.ok(!error.message.includes("sesame"), "a secret's value is never printed");
  assert.throws(() => loadConfig({ PORT: "65536", JWT_SECRET: "x".repeat(32) }), /PORT must be a whole number between 0 and 65535/);
  assert.throws(() => loadConfig({ PORT: "80.5", JWT_SECRET: "x".repeat(32) }), /PORT must be a whole number between 0 and 65535/);
});

test("the chat model and the metrics token are read with the rest, blanks meaning unset", () => {
  const config = loadConfig({
    JWT_SECRET: "x".repeat(32),
    LLM_BASE_URL: "https://llm.example/v1/",
    LLM_API_KEY: "k",
    LLM_TIMEOUT_MS: "5000",
    METRICS_TOKEN: "scrape-me-please-0123",
  });
  assert.deepEqual(config.llm, { baseUrl: "https://llm.example/v1", apiKey: "k", model: "gpt-4o-mini", timeoutMs: 5000 });
  assert.equal(config.metricsToken, "scrape-me-please-0123");
  const blank = loadConfig({ JWT_SECRET: "x".repeat(32), LLM_BASE_URL: " ", METRICS_TOKEN: "", PORT: "" });
  assert.equal(blank.llm, undefined);
  assert.equal(blank.metricsToken, undefined);
  assert.equal(blank.port, 5001);
  assert.equal(blank.shutdownGraceMs, 8000);
  assert.equal(blank.reminderIntervalMs, 60_000);
});

test("the stand-alone indexer checks its variables with the API's rules", () => {
  const config = loadIndexerConfig({
    DATABASE_URL: "postgres://db/loanmint",
    RPC_URL: "https://rpc.example/v1",
    RPC_WS_URL: "wss://rpc.example/ws",
    CHAIN_ID: "11155111",
    CONFIRMATIONS: "3",
    INDEXER_POLL_MS: "250",
  });
  assert.deepEqual(
    { ...config, dataDir: undefined },
    {
      databaseUrl: "postgres://db/loanmint",
      dataDir: undefined,
      rpcUrl: "https://rpc.example/v1",
      chainId: 11155111,
      confirmations: 3,
      pollIntervalMs: 250,
      headsUrl: "wss://rpc.example/ws",
    },
  );
  assert.equal(loadIndexerConfig({}).headsUrl, undefined, "unset: a local node's own WebSocket is found from RPC_URL");
  assert.throws(
    () => loadIndexerConfig({ DATABASE_URL: "mysql://db", INDEXER_POLL_MS: "soon", RPC_WS_URL: "https://rpc.example" }),
    (error: unknown) =>
      error instanceof ConfigError &&
      error.problems.join("\n") ===
        "DATABASE_URL must be a postgres:// connection string\nRPC_WS_URL must be a ws(s) URL such as wss://eth-mainnet.example/ws\nINDEXER_POLL_MS must be a whole number of milliseconds from 0 to 3600000",
  );
});

const entryPoints = [
  ["npm start", "scripts/start.ts"],
  ["npm run indexer", "scripts/indexer.ts"],
  ["the API alone", "api/src/server.ts"],
] as const;
for (const [name, script] of entryPoints) {
  test(`${name} prints every wrong setting and exits 1 without a stack trace`, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "lm-env-entry-"));
    try {
      const env = { ...process.env, DATA_DIR: dataDir, PORT: "http", CHAIN_ID: "mainnet", RPC_URL: "localhost:8545" };
      const child = spawn(process.execPath, ["--import", "tsx", script], { env, stdio: ["ignore", "pipe", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (chunk) => (stderr += chunk));
      const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
      assert.equal(code, 1, stderr);
      assert.match(stderr, /CHAIN_ID must be a positive whole number/);
      assert.match(stderr, /RPC_URL must be an http\(s\) URL/);
      if (script !== "scripts/indexer.ts") assert.match(stderr, /PORT must be a whole number between 0 and 65535/);
      assert.doesNotMatch(stderr, /^\s+at /m, "no stack trace");
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
}
