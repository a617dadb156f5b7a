import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, loadConfig } from "./env";
import { DEV_ACCOUNTS } from "../../../domain/devAccounts";

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
