import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import pino from "pino";
import { privateKeyToAccount } from "viem/accounts";
import { users } from "#db/schema";
import { createTestDatabase } from "#db/testing";
import { PUBLISHED_DEV_ACCOUNTS } from "#domain/publishedDevKeys";
import { DEMO_ACCOUNTS } from "#domain/demoAccounts";
import { startServer } from "../server";
import { ConfigError, loadConfig } from "./env";

type Db = Awaited<ReturnType<typeof createTestDatabase>>["db"];

/** What scripts/seed.ts leaves on the local chain: the demo emails with the dev wallets #5, #3, #4. */
const seedDemo = (db: Db) =>
  db
    .insert(users)
    .values(
      DEMO_ACCOUNTS.map((demo) => ({ email: demo.email, role: demo.role, firstName: demo.firstName, lastName: demo.lastName, walletAddress: privateKeyToAccount(demo.key).address.toLowerCase() })),
    );

const configFor = (chainId: number, dataDir: string, databaseUrl?: string) =>
  loadConfig({ CHAIN_ID: String(chainId), DATA_DIR: dataDir, JWT_SECRET: randomUUID() + randomUUID(), LOG_LEVEL: "silent", ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });

async function startWith(chainId: number, seed: (db: Db) => Promise<unknown>) {
  const dataDir = mkdtempSync(join(tmpdir(), "lm-seeded-"));
  const database = await createTestDatabase();
  try {
    await seed(database.db);
    const server = await startServer({ port: 0, config: configFor(chainId, dataDir, database.url ?? undefined), database, logger: pino({ level: "silent" }), staticDir: join(dataDir, "no-app") });
    await server.close();
    return null;
  } catch (error) {
    return error;
  } finally {
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

test("off the local chain the API refuses a database holding the demo accounts, as one problem line", async () => {
  const error = await startWith(84532, (db) => seedDemo(db));
  assert.ok(error instanceof ConfigError, String(error));
  assert.equal(error.problems.length, 1);
  assert.match(error.problems[0], /^(DATABASE_URL|DATA_DIR) holds 3 account\(s\) of the local chain \(demo logins or wallets whose keys are published\)/);
});

test("off the local chain the API refuses a database holding any published dev-key wallet", async () => {
  const error = await startWith(1, (db) => db.insert(users).values({ firstName: "Wallet", lastName: "#15", isWalletUser: true, walletAddress: PUBLISHED_DEV_ACCOUNTS[15].address }));
  assert.ok(error instanceof ConfigError, String(error));
  assert.match(error.problems[0], /holds 1 account\(s\) of the local chain/);
});

test("the local chain starts on its own seeded database, and another chain on a database of real users", async () => {
  assert.equal(await startWith(31337, (db) => seedDemo(db)), null);
  assert.equal(await startWith(84532, (db) => db.insert(users).values({ email: "ada@example.com", firstName: "Ada", lastName: "Lovelace" })), null);
});
