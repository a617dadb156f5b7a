import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { and, eq } from "drizzle-orm";
import { createPublicClient, http, type Address, type Hex, type PublicClient } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { deployAll, ensureCompiled } from "#contracts/deploy";
import { loans, orders } from "#db/schema";
import { createTestDatabase, type TestDatabase } from "#db/testing";
import { freePort, startAnvil, type Anvil } from "#devchain/anvil";
import { loanNoteAbi, testDollarAbi } from "#domain/abis";
import type { Deployment } from "#domain/deployment";
import { validRequest } from "#testing/loanStack";
import { account, type Account } from "../realtime/testing";
import { endOnExit, sleep, spawnOwned, stopChild, tail } from "#testing/privateProcess";

/**
 * `kill -9` of the platform while an approval's origination is in flight (sent, not yet mined): the API and the
 * indexer are real child processes (api/src/server.ts, scripts/indexer.ts) over a private chain and a database of
 * the test's own. After the transaction is mined and both start again, the start-up reconciliation and the
 * indexer end with exactly one note, the loan active, the borrower funded once; approving again mints nothing.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
let anvil: Anvil;
let chain: PublicClient;
let deployment: Deployment;
let database: TestDatabase;
let dataDir: string;
let env: NodeJS.ProcessEnv;
let port: number;
let children: { api: ChildProcess; indexer: ChildProcess; output: () => string } | null = null;
let admin: Account;
let borrower: Account & { wallet: Address };

before(async () => {
  ensureCompiled();
  dataDir = mkdtempSync(join(tmpdir(), "lm-fault-kill-"));
  [anvil, database, port] = await Promise.all([startAnvil(), createTestDatabase(), freePort()]);
  endOnExit(anvil.process);
  assert.ok(database.url, "this test needs PostgreSQL (DATABASE_URL): the API and the indexer are separate processes");
  deployment = await deployAll({ rpcUrl: anvil.rpcUrl, dataDir });
  chain = createPublicClient({ transport: http(anvil.rpcUrl), cacheTime: 0 }) as PublicClient;
  const { REDIS_URL: _redis, ...inherited } = process.env;
  env = {
    ...inherited,
    DATA_DIR: dataDir,
    DATABASE_URL: database.url!,
    RPC_URL: anvil.rpcUrl,
    CHAIN_ID: "31337",
    PORT: String(port),
    APP_ORIGIN: `http://localhost:${port}`,
    JWT_SECRET: randomUUID() + randomUUID(),
    KV_PREFIX: `fault-kill-${randomUUID().slice(0, 8)}:`,
    RATE_LIMIT_SCALE: "100",
    INDEXER_POLL_MS: "100",
    LOG_LEVEL: "info",
  };
  children = await startPlatform();
  admin = await account(call, database.db, { admin: true });
  const wallet = privateKeyToAccount(generatePrivateKey()).address;
  borrower = { ...(await account(call, database.db, { wallet, kyc: "approved" })), wallet };
});
after(async () => {
  if (children) await stopPlatform(children, "SIGTERM");
  await anvil?.stop();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The API and the indexer as an operator runs them apart, started together; resolves when both are up. */
async function startPlatform() {
  const run = (script: string) => spawnOwned(process.execPath, ["--import", "tsx", script], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  const api = run("api/src/server.ts");
  const indexer = run("scripts/indexer.ts");
  const logs = [tail(api, "stdout", 40), tail(api, "stderr", 40), tail(indexer, "stdout", 20), tail(indexer, "stderr", 20)];
  const output = () => logs.map((log) => log()).join("\n");
  let following = false;
  indexer.stdout?.on("data", (chunk: Buffer) => (following ||= chunk.toString().includes("indexer: following chain")));
  for (let attempt = 0; attempt < 1200; attempt++) {
    if (api.exitCode !== null || indexer.exitCode !== null) break;
    const answered =
      following &&
      (await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (res) => res.ok,
        () => false,
      ));
    if (answered) return { api, indexer, output };
    await sleep(100);
  }
  await stopPlatform({ api, indexer }, "SIGKILL");
  throw new Error(`the platform did not start:\n${output()}`);
}

async function stopPlatform(platform: { api: ChildProcess; indexer: ChildProcess }, signal: NodeJS.Signals) {
  await Promise.all([stopChild(platform.api, signal), stopChild(platform.indexer, signal)]);
}

async function call(method: string, path: string, options: { body?: unknown; token?: string } = {}) {
  const response = await fetch(`http://127.0.0.1:${port}/api${path}`, {
    method,
    headers: { "content-type": "application/json", ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  return { status: response.status, body: await response.json() };
}

const rpc = <T>(method: string, params: unknown[] = []) => chain.request({ method: method as never, params: params as never }) as Promise<T>;
const loanRow = async (id: string) => (await database.db.select().from(loans).where(eq(loans.id, id)))[0];

/** The transactions the node holds but has not mined. */
async function pending(): Promise<{ hash: Hex; from: string; to: string }[]> {
  const content = await rpc<{ pending: Record<string, Record<string, { hash: Hex; from: string; to: string }>> }>("txpool_content");
  return Object.values(content.pending).flatMap((byNonce) => Object.values(byNonce));
}

async function originations(tokenId: bigint) {
  return chain.getContractEvents({ address: deployment.contracts.loanNote as Address, abi: loanNoteAbi, eventName: "LoanOriginated", args: { tokenId }, fromBlock: 0n });
}

async function waitFor<T>(what: string, probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const value = await probe();
    if (done(value)) return value;
    await sleep(100);
  }
  throw new Error(`${what} did not happen within 60 s:\n${children?.output()}`);
}

test("kill -9 while an approval's origination is in flight: after a restart, exactly one note, the loan active and listed at par, the borrower funded once, and approving again mints nothing", async (t) => {
  const requested = await call("POST", "/loans/request", { token: borrower.token, body: validRequest });
  assert.equal(requested.status, 201, requested.body.message);
  const loan = requested.body.data;
  const tokenId = BigInt(loan.loanNumber);
  const principal = 5_000_000_000n; // validRequest's $5,000 in the stablecoin's 6 decimals

  // The node stops mining, so the origination sits sent and unmined: the moment to pull the plug.
  await rpc("evm_setAutomine", [false]);
  const approving = call("PUT", `/admin/loans/${loan._id}/approve`, { token: admin.token, body: {} }).catch((error: unknown) => error);
  const [origination] = await waitFor("the origination sent", pending, (txs) => txs.length > 0);
  assert.equal(origination.to.toLowerCase(), (deployment.contracts.loanNote as string).toLowerCase());
  assert.equal(origination.from.toLowerCase(), (deployment.originator as string).toLowerCase());
  children!.api.kill("SIGKILL");
  children!.indexer.kill("SIGKILL");
  await stopPlatform(children!, "SIGKILL");
  assert.ok((await approving) instanceof Error, "the approval never got an answer");

  const crashed = await loanRow(loan._id);
  assert.equal(crashed.status, "approved");
  assert.equal(crashed.mintStatus, "minting");
  t.diagnostic(`killed with the transaction hash ${crashed.mintTxHash ? "recorded" : "not yet recorded"} in the database`);

  // The transaction is mined while nothing of the platform runs.
  await rpc("evm_mine");
  await rpc("evm_setAutomine", [true]);
  assert.equal((await chain.getTransactionReceipt({ hash: origination.hash })).status, "success");

  children = await startPlatform();
  const recovered = await waitFor(
    "the loan reconciled",
    () => loanRow(loan._id),
    (row) => row.mintStatus !== "minting",
  );
  assert.equal(recovered.mintStatus, "minted", recovered.mintError ?? "");
  assert.equal(recovered.status, "active");
  assert.equal(recovered.nftTokenId, loan.loanNumber.toString());
  assert.equal(recovered.nftTransactionHash, origination.hash);

  const again = await call("PUT", `/admin/loans/${loan._id}/approve`, { token: admin.token, body: {} });
  assert.equal(again.status, 409);
  assert.equal(again.body.message, "Only pending loans can be approved or rejected");
  const retried = await call("POST", `/admin/nfts/${loan._id}/retry-mint`, { token: admin.token, body: {} });
  assert.equal(retried.status, 409);

  assert.equal((await originations(tokenId)).length, 1, "one note");
  const funded = (await chain.readContract({ address: deployment.contracts.stablecoin as Address, abi: testDollarAbi, functionName: "balanceOf", args: [borrower.wallet] })) as bigint;
  assert.equal(funded, principal, "the borrower was paid once");
  const view = await call("GET", `/loans/${loan._id}`, { token: borrower.token });
  assert.equal(view.status, 200);
  assert.equal(view.body.data.status, "active");
  // Nothing of the approval is lost: the listing at par the crash cut off is made at start-up.
  const listed = await waitFor(
    "the note listed",
    () => loanRow(loan._id),
    (row) => !["none", "listing"].includes(row.listingStatus),
  );
  assert.equal(listed.listingStatus, "listed", listed.listingError ?? "");
  // By the treasury's signature at 100% of par, once: the book holds one open listing of the note.
  const signed = await database.db
    .select()
    .from(orders)
    .where(and(eq(orders.tokenId, tokenId), eq(orders.kind, "listing")));
  assert.deepEqual(
    signed.map((o) => [o.signer, o.parBps, o.status]),
    [[(deployment.treasury as string).toLowerCase(), 10_000, "open"]],
  );
});
