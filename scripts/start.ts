// `npm start`: the whole platform on one machine with embedded defaults — a local chain that keeps
// its state in ./data, the contracts deployed once, PGlite unless DATABASE_URL is set, the API with
// socket.io and the built app on one origin. Ctrl-C stops every child it started.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { LOCAL_CHAIN_ID, type Deployment } from "#domain/deployment";
import { fundDemoWallets } from "./fundDemoWallets";
import { deployContracts as deployLocalContracts, startChainIfNeeded as startLocalChain } from "./localChain";
import { ConfigError, loadIndexerConfig, validateEnvironment } from "#api/config/env";

const flags = new Set(process.argv.slice(2));
const root = process.cwd();
const dataDir = resolve(process.env.DATA_DIR ?? "data");
const port = Number(process.env.PORT ?? 5001);
const rpcUrl = process.env.RPC_URL ?? "http://127.0.0.1:8545";
const chainId = Number(process.env.CHAIN_ID ?? LOCAL_CHAIN_ID);
const devMode = flags.has("--dev");

/** Stopped last-started first: indexer, API, database, chain. */
const stops: Array<() => Promise<void>> = [];
let stopping = false;

async function main(): Promise<void> {
  // Every bad setting at once, before a chain or a database is started for nothing.
  validateEnvironment();
  mkdirSync(dataDir, { recursive: true });
  Object.assign(process.env, { DATA_DIR: dataDir, PORT: String(port), RPC_URL: rpcUrl, CHAIN_ID: String(chainId) });
  process.env.APP_ORIGIN ??= `http://localhost:${port}`;
  // The terminal keeps the banner, the logins and warnings; every request is on record in a file (LOG_LEVEL=info
  // prints them here too).
  process.env.LOG_FILE ??= join(dataDir, "logs", "api.log");
  process.env.LOG_LEVEL ??= "warn";

  await step("chain", startChainIfNeeded, `starting the local chain at ${rpcUrl}, or using the one that answers there`);
  const deployment = await step("contracts", deployContracts, "compiling and deploying the contracts if this chain lacks them (the first start compiles: a few minutes on a busy machine)");
  if (chainId === LOCAL_CHAIN_ID) await step("demo wallets", () => fundDemoWallets(rpcUrl, deployment), "giving the demo wallets gas and test dollars");
  if (!devMode) await step("app", buildAppIfStale, "building the app if its code changed since the last build (about a minute when it did)");
  const server = await step("api", startApi, "opening the database and starting the API");
  if (!flags.has("--no-indexer")) await step("indexer", () => startIndexerInProcess(server, deployment), "indexing the chain into the database");
  // Any chain but the local one is real money: no demo account, no living demo; the first admin registers.
  const localChain = chainId === LOCAL_CHAIN_ID;
  const logins = localChain ? await step("demo accounts", () => seedAccounts(server), "creating the demo accounts") : [];
  if (localChain && !flags.has("--no-demo")) await step("living demo", () => runLivingDemo(server, logins), "making the demo's loans, sales and repayments (first start only)");
  const appUrl = devMode ? await startViteDevServer() : server.url;

  printBanner(appUrl, deployment, localChain ? demoLoginLines(logins) : firstAdminLines(appUrl));
}

/** One start-up step, said before it runs (some take minutes the first time) and timed when done. */
async function step<T>(name: string, action: () => Promise<T>, doing: string): Promise<T> {
  const started = Date.now();
  console.log(`[loanmint] ${name}: ${doing}…`);
  const result = await action();
  console.log(`[loanmint] ${name} ready (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return result;
}

/** On the local chain, a private anvil whose state survives restarts, unless one already answers. */
async function startChainIfNeeded(): Promise<void> {
  const anvil = await startLocalChain({ rpcUrl, chainId, dataDir });
  if (anvil) stops.push(() => anvil.stop());
}

const deployContracts = () => deployLocalContracts(rpcUrl, dataDir);

async function buildAppIfStale(): Promise<void> {
  const built = join(root, "app", "dist", "index.html");
  if (existsSync(built) && newestMtime(join(root, "app")) <= statSync(built).mtimeMs && newestMtime(join(root, "domain")) <= statSync(built).mtimeMs) return;
  await runChild("vite", ["build", "--config", "app/vite.config.ts", "--logLevel", "warn"]);
}

/** The API gets the database from here so the indexer can share it (PGlite allows one process). */
async function startApi() {
  const { connectDatabase } = await import("#db/connect");
  const database = await connectDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir });
  stops.push(() => database.close());
  const { startServer } = await import("#api/server");
  const server = await startServer({ port, database });
  stops.push(() => server.close());
  return server;
}

/** With PGlite the indexer must live in this process; with DATABASE_URL, `--no-indexer` lets `npm run indexer` run apart. */
async function startIndexerInProcess(server: StartedServer, deployment: Deployment): Promise<void> {
  const { startIndexer } = await import("#indexer/index");
  // A local chain answers a poll in a millisecond; polling often keeps live events well inside 300 ms of the block.
  const pollIntervalMs = chainId === LOCAL_CHAIN_ID ? 100 : 1000;
  const { confirmations, headsUrl } = loadIndexerConfig();
  const indexer = startIndexer({ db: server.db, rpcUrl, deployment, confirmations, pollIntervalMs, headsUrl });
  stops.push(() => indexer.stop());
  await indexer.caughtUp();
}

type StartedServer = Awaited<ReturnType<typeof startApi>>;

async function seedAccounts(server: StartedServer) {
  const { seedDemo } = await import("./seed");
  return seedDemo(server.db);
}

/** A first visitor finds loans, a marketplace and history; it skips itself once the demo borrower has loans. */
async function runLivingDemo(server: StartedServer, logins: Awaited<ReturnType<typeof seedAccounts>>): Promise<void> {
  const { runLivingDemoForSeededAccounts } = await import("#api/nfts/demo");
  await runLivingDemoForSeededAccounts({ baseUrl: server.url, rpcUrl, logins, log: (line) => console.log(`[loanmint] ${line}`) });
}

async function startViteDevServer(): Promise<string> {
  const { createServer } = await import("vite");
  process.env.VITE_API_TARGET = `http://localhost:${port}`; // app/vite.config.ts proxies /api and /socket.io there
  const vite = await createServer({ configFile: join(root, "app", "vite.config.ts"), server: { port: 5173, strictPort: false } });
  await vite.listen();
  stops.push(() => vite.close());
  return vite.resolvedUrls?.local[0] ?? "http://localhost:5173";
}

function printBanner(appUrl: string, deployment: { chainId: number; contracts: Record<string, string> }, accountLines: string[]): void {
  const lines = [
    "",
    `  LoanMint is running at ${appUrl}`,
    `  API ${appUrl.replace(/\/$/, "")}/api   chain ${rpcUrl} (id ${deployment.chainId})   data ${dataDir}`,
    `  Request logs ${process.env.LOG_FILE}${process.env.LOG_LEVEL === "info" ? "" : "   (LOG_LEVEL=info prints them here too)"}`,
    "",
    ...accountLines,
    "",
    "  Press Ctrl-C to stop.",
    "",
  ];
  console.log(lines.join("\n"));
}

/** The Local dev wallet's account that goes with each demo login (the verified wallet of that account). */
const DEV_WALLET_OF: Record<string, string> = { borrower: "Demo borrower (dev account #3)", investor: "Demo investor (dev account #4)", admin: "Demo admin's wallet (dev account #5)" };

function demoLoginLines(logins: Array<{ role: string; email: string; password: string }>): string[] {
  const rows = logins.map((login) => `    ${login.role.padEnd(9)} ${login.email.padEnd(28)} ${login.password.padEnd(14)} ${DEV_WALLET_OF[login.role] ?? ""}`);
  return ["  Demo logins (password, then the Local dev wallet account to pick for it):", ...rows];
}

/** README "A public chain": the first administrator registers with the operator's invite code. */
function firstAdminLines(appUrl: string): string[] {
  const register = `${appUrl.replace(/\/$/, "")}/register`;
  return [
    `  Chain ${chainId} is treated as real money: no demo accounts, dev wallet or faucet.`,
    process.env.ADMIN_INVITE_CODE
      ? `  First administrator: register at ${register} as "Administrator" with your ADMIN_INVITE_CODE.`
      : '  No administrator can register yet: set ADMIN_INVITE_CODE and start again, then register as "Administrator" with it.',
  ];
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "dist" || entry.name === "node_modules") continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function runChild(command: string, args: string[]): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: "inherit", env: process.env });
    child.on("exit", (code) => (code === 0 ? resolvePromise() : reject(new Error(`${command} ${args.join(" ")} exited with ${code}`))));
  });
}

async function shutdown(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log("\n[loanmint] stopping…");
  for (const stop of stops.reverse()) await stop().catch((error) => console.error(error));
  process.exit(code);
}

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => void shutdown(0));

main().catch(async (error) => {
  console.error(`[loanmint] start failed: ${error instanceof Error ? error.message : String(error)}`);
  if (error instanceof Error && error.stack && !(error instanceof ConfigError)) console.error(error.stack);
  await shutdown(1);
});
