import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createPublicClient, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { freePort, rpcAnswers } from "#devchain/anvil";
import { testDollarAbi } from "#domain/abis";
import { DEV_ACCOUNTS } from "#domain/devAccounts";

// `npm start` on embedded defaults (PGlite, in-memory key-value), from an empty data directory.
describe("npm start", { timeout: 600_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), "loanmint-start-"));
  let port: number;
  let rpcUrl: string;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    port = await freePort();
    rpcUrl = `http://127.0.0.1:${await freePort()}`;
    env = { ...process.env, DATA_DIR: dataDir, PORT: String(port), RPC_URL: rpcUrl };
    delete env.DATABASE_URL;
    delete env.LOG_LEVEL;
    delete env.LOG_FILE;
    delete env.REDIS_URL;
    delete env.JWT_SECRET;
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it("serves the API from a clean data directory and stops its chain on Ctrl-C", async () => {
    const started = await startPlatform(env);
    const health = await fetch(`http://localhost:${port}/api/health`);
    assert.equal(health.status, 200);
    const config = (await (await fetch(`http://localhost:${port}/api/config`)).json()) as { data: { chainId: number; rpcUrl: string } };
    assert.equal(config.data.chainId, 31337);
    assert.equal(config.data.rpcUrl, "/api/rpc");
    assert.match(started.output, /admin@loanmint\.local/);
    assert.ok((await demoBorrowerDollars(rpcUrl, config.data)) >= 10_000n * 10n ** 6n, "the demo borrower's wallet holds test dollars");

    const registered = await fetch(`http://localhost:${port}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", password: "secret-123" }),
    });
    assert.equal(registered.status, 201);

    await stopPlatform(started.child);
    assert.equal(await rpcAnswers(rpcUrl), false, "the chain stopped with npm start");
  });

  it("comes back with the same contracts and accounts on a second start", async () => {
    const record = readFileSync(join(dataDir, "deployments", "31337.json"), "utf8");
    const started = await startPlatform(env);
    assert.equal(readFileSync(join(dataDir, "deployments", "31337.json"), "utf8"), record, "the deployment was reused");
    const login = await fetch(`http://localhost:${port}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "ada@example.com", password: "secret-123" }),
    });
    assert.equal(login.status, 200);
    // The terminal keeps the banner and warnings; the request is on record in data/logs/api.log.
    const logFile = join(dataDir, "logs", "api.log");
    const logged = () => existsSync(logFile) && readFileSync(logFile, "utf8").includes('"url":"/api/auth/login"');
    for (let i = 0; i < 50 && !logged(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok(logged(), "the login request is in data/logs/api.log");
    assert.doesNotMatch(started.output, /"url":"\/api\/auth\/login"/, "no request line reaches the terminal");
    assert.match(started.output, /Request logs .*logs\/api\.log/);
    await stopPlatform(started.child);
  });
});

async function demoBorrowerDollars(rpcUrl: string, config: unknown): Promise<bigint> {
  const { contracts } = config as { contracts: { stablecoin: `0x${string}` } };
  const client = createPublicClient({ transport: http(rpcUrl) });
  const holder = privateKeyToAccount(DEV_ACCOUNTS.demoBorrower).address;
  return client.readContract({ address: contracts.stablecoin, abi: testDollarAbi, functionName: "balanceOf", args: [holder] });
}

async function startPlatform(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; output: string }> {
  const child = spawn(process.execPath, ["scripts/bootstrap.mjs", "start", "--no-demo"], { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const deadline = Date.now() + 300_000;
  while (!output.includes("Press Ctrl-C to stop")) {
    if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output}`);
    if (Date.now() > deadline) throw new Error(`npm start did not finish starting:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    child,
    get output() {
      return output;
    },
  };
}

async function stopPlatform(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGINT");
  await exited;
}
