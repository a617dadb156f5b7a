import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { createPublicClient, createWalletClient, http, parseEther, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { connectDatabase } from "../db/connect";
import { users } from "../db/schema";
import { createTestDatabase, type TestDatabase } from "../db/testing";
import { freePort, startAnvil, type Anvil } from "../devchain/anvil";
import { deployAll } from "../contracts/deploy";
import { DEMO_ACCOUNTS } from "../domain/demoAccounts";
import { DEV_ACCOUNTS } from "../domain/devAccounts";
import { PUBLISHED_DEV_ACCOUNTS } from "../domain/publishedDevKeys";
import { seedDemo } from "./seed";

const CHAIN_ID = 84532;

/**
 * DESIGN.md "Any chain but 31337 is treated as real money", tried as the README's public-chain section says:
 * `npm run deploy` with the operator's own keys, then `npm start` with CHAIN_ID and those keys, against a
 * private anvil that calls itself chain 84532. Its well-known accounts only pay for the fresh operator keys' gas.
 */
describe("npm start on a chain other than 31337", { timeout: 900_000 }, () => {
  let anvil: Anvil;
  const operator = { deployer: generatePrivateKey(), originator: generatePrivateKey(), treasury: generatePrivateKey() };
  const inviteCode = `first-admin-${randomBytes(6).toString("hex")}`;
  const deployedDir = mkdtempSync(join(tmpdir(), "lm-public-deployed-"));
  const dataDirs: string[] = [deployedDir];

  before(async () => {
    anvil = await startAnvil({ chainId: CHAIN_ID });
    await fundFromAnvil(anvil.rpcUrl, Object.values(operator));
    await deployAll({ rpcUrl: anvil.rpcUrl, dataDir: deployedDir, deployerKey: operator.deployer, treasuryKey: operator.treasury, originatorKey: operator.originator });
  });
  after(async () => {
    await anvil?.stop();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  /** A data directory holding only the deployment record, as `npm run deploy` leaves it. */
  function deployedDataDir(): string {
    const dir = mkdtempSync(join(tmpdir(), "lm-public-"));
    dataDirs.push(dir);
    cpSync(join(deployedDir, "deployments"), join(dir, "deployments"), { recursive: true });
    return dir;
  }

  async function operatorEnv(dataDir: string, overrides: NodeJS.ProcessEnv = {}): Promise<NodeJS.ProcessEnv> {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      RPC_URL: anvil.rpcUrl,
      CHAIN_ID: String(CHAIN_ID),
      DEPLOYER_KEY: operator.deployer,
      ORIGINATOR_KEY: operator.originator,
      TREASURY_KEY: operator.treasury,
      ADMIN_INVITE_CODE: inviteCode,
      LOG_LEVEL: "warn",
      ...overrides,
    };
    for (const name of ["DATABASE_URL", "REDIS_URL", "JWT_SECRET", "APP_ORIGIN"]) if (!(name in overrides)) delete env[name];
    return env;
  }

  describe("with fresh keys and a fresh database", () => {
    let database: TestDatabase;
    let platform: Started;
    let origin: string;

    before(async () => {
      database = await createTestDatabase();
      if (!database.url) return;
      const env = await operatorEnv(deployedDataDir(), { DATABASE_URL: database.url });
      origin = `http://localhost:${env.PORT}`;
      platform = await startPlatform(env);
    });
    after(async () => {
      await platform?.stop();
      await database?.drop();
    });

    it("seeds no account, names no demo login and says how the first administrator is made", async (t) => {
      if (!database.url) return t.skip("needs PostgreSQL, to read the users while the platform runs");
      assert.deepEqual(await database.db.select().from(users), [], "no user row at all");
      assert.doesNotMatch(platform.output, /Demo logins|@loanmint\.local|Admin123!/);
      assert.match(platform.output, /Chain 84532 is treated as real money/);
      assert.match(platform.output, /First administrator: register at http:\/\/localhost:\d+\/register as "Administrator" with your ADMIN_INVITE_CODE/);
    });

    it("refuses the demo logins, by password and by the demo admin's published wallet key", async (t) => {
      if (!database.url) return t.skip("needs PostgreSQL");
      for (const demo of DEMO_ACCOUNTS) {
        const login = await call(origin, "POST", "/auth/login", { email: demo.email, password: demo.password });
        assert.equal(login.status, 401, `${demo.email}: ${login.body.message}`);
      }
      const siwe = await call(origin, "POST", "/auth/wallet/connect", { walletAddress: privateKeyToAccount(DEV_ACCOUNTS.demoAdmin).address });
      assert.equal(siwe.status, 400, siwe.body.message);
      assert.match(siwe.body.message, /private key is published/);
    });

    it("has no faucet and no dev wallet: the config says this is not the local chain", async (t) => {
      if (!database.url) return t.skip("needs PostgreSQL");
      const faucet = await fetch(`${origin}/api/dev/faucet`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ address: privateKeyToAccount(generatePrivateKey()).address }),
      });
      assert.equal(faucet.status, 404);
      const config = await call(origin, "GET", "/config");
      assert.equal(config.status, 200);
      assert.equal(config.body.data.chainId, CHAIN_ID);
      assert.equal(config.body.data.isLocalChain, false, "the app offers the Local dev wallet only when isLocalChain is true");
    });

    it("makes the first administrator only with the invite code, never with a demo email", async (t) => {
      if (!database.url) return t.skip("needs PostgreSQL");
      const person = { firstName: "Grace", lastName: "Hopper", password: "a-long-secret-1", role: "admin" };
      const without = await call(origin, "POST", "/auth/register", { ...person, email: "grace@example.com" });
      assert.equal(without.status, 403, without.body.message);
      const wrong = await call(origin, "POST", "/auth/register", { ...person, email: "grace@example.com", adminInviteCode: `${inviteCode}-not` });
      assert.equal(wrong.status, 403, wrong.body.message);
      const demoEmail = await call(origin, "POST", "/auth/register", { ...person, email: "Admin@LoanMint.local", adminInviteCode: inviteCode });
      assert.equal(demoEmail.status, 400, demoEmail.body.message);
      assert.equal(demoEmail.body.message, "This email address belongs to the local demo. Please use your own.");
      assert.deepEqual(await database.db.select().from(users), [], "no refused registration left a row");

      const invited = await call(origin, "POST", "/auth/register", { ...person, email: "grace@example.com", adminInviteCode: inviteCode });
      assert.equal(invited.status, 201, invited.body.message);
      assert.equal(invited.body.data.user.role, "admin");
      const login = await call(origin, "POST", "/auth/login", { email: "grace@example.com", password: person.password });
      assert.equal(login.status, 200, login.body.message);
      const admin = await fetch(`${origin}/api/admin/users`, { headers: { authorization: `Bearer ${login.body.data.token}` } });
      assert.equal(admin.status, 200, "the invited administrator reaches the admin API");
      const rows = await database.db.select().from(users);
      assert.deepEqual(rows.map((row) => [row.email, row.role]), [["grace@example.com", "admin"]]);
    });
  });

  const publishedKeys = [
    ["ORIGINATOR_KEY", DEV_ACCOUNTS.originator, "anvil's #1"],
    ["TREASURY_KEY", PUBLISHED_DEV_ACCOUNTS[12].key, "#12, past the ten anvil funds"],
    ["DEPLOYER_KEY", DEV_ACCOUNTS.deployer.toUpperCase().replace("0X", "0x"), "anvil's #0 in capitals"],
  ] as const;
  for (const [setting, key, which] of publishedKeys) {
    it(`refuses to start with a published dev key as ${setting} (${which}): exit 1 and one line naming it`, async () => {
      const ended = await runToEnd(["scripts/bootstrap.mjs", "start"], await operatorEnv(deployedDataDir(), { [setting]: key }));
      assert.equal(ended.code, 1, ended.output);
      assertOneProblemLine(ended.output, setting, /is one of anvil's published dev keys, which anyone can sign with/);
      for (const other of ["ORIGINATOR_KEY", "TREASURY_KEY", "DEPLOYER_KEY"].filter((name) => name !== setting)) {
        assert.ok(!ended.output.includes(other), `the fresh ${other} is not named`);
      }
      assert.ok(!ended.output.toLowerCase().includes(key.slice(2).toLowerCase()), "the key is never printed");
    });
  }

  it("refuses a chain that is not the CHAIN_ID, so a forgotten CHAIN_ID never seeds the demo on a public RPC", async () => {
    const env = await operatorEnv(deployedDataDir());
    delete env.CHAIN_ID;
    delete env.DEPLOYER_KEY;
    delete env.ORIGINATOR_KEY;
    delete env.TREASURY_KEY;
    const ended = await runToEnd(["scripts/bootstrap.mjs", "start"], env);
    assert.equal(ended.code, 1, ended.output);
    assertOneProblemLine(ended.output, "CHAIN_ID", /must be the id of the chain at RPC_URL, which answers 84532/);
  });

  it("npm run deploy refuses a published dev key off the local chain", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "lm-public-deploy-"));
    dataDirs.push(dataDir);
    await assert.rejects(
      deployAll({ rpcUrl: anvil.rpcUrl, dataDir, deployerKey: DEV_ACCOUNTS.deployer, treasuryKey: operator.treasury, originatorKey: operator.originator }),
      /the deployer key is one of anvil's published dev keys: on chain 84532 use a key of your own/,
    );
  });

  it("refuses to start on a data directory carried over from the local chain, npm start and the API alone alike", async () => {
    const dataDir = deployedDataDir();
    const carried = await connectDatabase({ dataDir });
    await seedDemo(carried.db);
    await carried.close();

    const started = await runToEnd(["scripts/bootstrap.mjs", "start"], await operatorEnv(dataDir));
    assert.equal(started.code, 1, started.output);
    assertOneProblemLine(started.output, "DATA_DIR", /holds 3 account\(s\) of the local chain \(demo logins or wallets whose keys are published\)/);

    const alone = await runToEnd(["--import", "tsx", "api/src/server.ts"], await operatorEnv(dataDir), process.execPath);
    assert.equal(alone.code, 1, alone.output);
    assertOneProblemLine(alone.output, "DATA_DIR", /holds 3 account\(s\) of the local chain/);
  });

  it("refuses a database holding a published dev-key wallet, naming DATABASE_URL", async (t) => {
    const database = await createTestDatabase();
    try {
      if (!database.url) return t.skip("needs PostgreSQL");
      await database.db.insert(users).values({ firstName: "Wallet", lastName: "#7", isWalletUser: true, walletAddress: PUBLISHED_DEV_ACCOUNTS[7].address });
      const alone = await runToEnd(["--import", "tsx", "api/src/server.ts"], await operatorEnv(deployedDataDir(), { DATABASE_URL: database.url }), process.execPath);
      assert.equal(alone.code, 1, alone.output);
      assertOneProblemLine(alone.output, "DATABASE_URL", /holds 1 account\(s\) of the local chain/);
      assert.ok(!alone.output.includes(database.url), "the connection string is never printed");
    } finally {
      await database.drop();
    }
  });
});

/** Anvil's own account #0 pays the fresh keys' gas, as a faucet would on a testnet. */
async function fundFromAnvil(rpcUrl: string, keys: Hex[]): Promise<void> {
  const chain = { id: CHAIN_ID, name: "public-like", nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } };
  const client = createPublicClient({ chain, transport: http(rpcUrl) });
  const funder = createWalletClient({ chain, transport: http(rpcUrl), account: privateKeyToAccount(DEV_ACCOUNTS.deployer) });
  for (const key of keys) {
    const hash = await funder.sendTransaction({ to: privateKeyToAccount(key).address, value: parseEther("100") });
    await client.waitForTransactionReceipt({ hash });
  }
}

/** The refusal names the setting on exactly one line, says why, and shows no stack trace. */
function assertOneProblemLine(output: string, setting: string, why: RegExp): void {
  const lines = output.split("\n").filter((line) => line.includes(setting));
  assert.equal(lines.length, 1, `one line names ${setting}:\n${output}`);
  assert.match(lines[0], new RegExp(`^\\s+- ${setting} `));
  assert.match(lines[0], why);
  assert.doesNotMatch(output, /^\s+at /m, "no stack trace");
}

async function call(origin: string, method: string, path: string, body?: unknown) {
  const answer = await fetch(`${origin}/api${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: answer.status, body: (await answer.json()) as { message: string; data: Record<string, any> } };
}

interface Started {
  output: string;
  stop(): Promise<void>;
}

/** `npm start` as a person runs it, until its banner. */
async function startPlatform(env: NodeJS.ProcessEnv): Promise<Started> {
  const child = spawn(process.execPath, ["scripts/bootstrap.mjs", "start"], { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  while (!output.includes("Press Ctrl-C to stop")) {
    if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    get output() {
      return output;
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGINT");
      await exited;
    },
  };
}

/** Runs a start that should refuse; one that comes up instead is stopped and reported as such (code null). */
async function runToEnd(args: string[], env: NodeJS.ProcessEnv, program = process.execPath): Promise<{ code: number | null; output: string }> {
  const child = spawn(program, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const cameUp = (async () => {
    while (!/Press Ctrl-C to stop|LoanMint API listening/.test(output)) {
      if (child.exitCode !== null) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    child.kill("SIGINT");
  })();
  const code = await exited;
  await cameUp;
  const startedAnyway = /Press Ctrl-C to stop|LoanMint API listening/.test(output);
  return { code: startedAnyway ? null : code, output };
}
