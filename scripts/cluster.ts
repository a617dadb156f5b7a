// `npm run cluster`: the platform as it grows past one process, on one machine — the chain and contracts as
// `npm start` has them, ONE indexer process, several API processes sharing PostgreSQL and Redis (socket.io's
// Redis adapter carries every broadcast to every process's clients), and a loopback proxy in front: one URL.
// Needs DATABASE_URL (PostgreSQL: PGlite is one process's) and REDIS_URL, e.g.
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/loanmint REDIS_URL=redis://127.0.0.1:6379 npm run cluster
// Options: --apis=N (2), PORT (5001: the proxy; the APIs take PORT+1…PORT+N), --no-seed. Ctrl-C stops everything.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { loadConfig, ConfigError, type AppConfig } from "#api/config/env";
import type { Anvil } from "#devchain/anvil";
import { LOCAL_CHAIN_ID, type Deployment } from "#domain/deployment";
import { fundDemoWallets } from "./fundDemoWallets";
import type { DemoLogin } from "./seed";
import { deployContracts, startChainIfNeeded } from "./localChain";
import { startProxy, type Proxy, type ProxyOptions } from "./proxy";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export interface ClusterOptions {
  /** The environment every process gets (DATABASE_URL, REDIS_URL, RPC_URL, DATA_DIR, KV_PREFIX, …). */
  env: NodeJS.ProcessEnv;
  /** The proxy's port (PORT, else 5001). */
  port?: number;
  /** Ports of the API processes (PORT+1… when omitted). */
  apiPorts?: number[];
  /** API processes when apiPorts is not given (2). */
  apis?: number;
  /** Create the demo accounts as `npm start` does (default true). */
  seed?: boolean;
  /** Where the processes' output and progress go, one line at a time (console.log by default). */
  log?: (line: string) => void;
  onRoute?: ProxyOptions["onRoute"];
  /** A process of the cluster exited on its own (the CLI stops everything then). */
  onExit?: (name: string, code: number | null) => void;
}

export interface ClusterProcess {
  name: string;
  pid: number;
  /** For an API process: its own origin, bypassing the proxy. */
  url?: string;
  port?: number;
}

export interface Cluster {
  /** The one URL: the proxy. */
  url: string;
  proxy: Proxy;
  apis: ClusterProcess[];
  indexer: ClusterProcess;
  config: AppConfig;
  deployment: Deployment;
  /** The demo accounts (empty with seed: false). */
  logins: DemoLogin[];
  stop(): Promise<void>;
}

/** Why the cluster cannot start, in words the operator can act on (no stack trace). */
export class ClusterSetupError extends Error {}

export function checkClusterEnv(env: NodeJS.ProcessEnv): void {
  const problems: string[] = [];
  if (!env.DATABASE_URL?.trim()) problems.push("DATABASE_URL is not set: every process shares one PostgreSQL (PGlite belongs to one process).");
  if (!env.REDIS_URL?.trim()) problems.push("REDIS_URL is not set: the API processes share broadcasts, rate limits and sign-in nonces through Redis.");
  if (problems.length) {
    throw new ClusterSetupError(
      `npm run cluster cannot start:\n${problems.map((p) => `  - ${p}`).join("\n")}\n` +
        `  For example, with PostgreSQL and Redis on this machine:\n` +
        `    createdb -h 127.0.0.1 -U postgres loanmint\n` +
        `    DATABASE_URL=postgres://postgres@127.0.0.1:5432/loanmint REDIS_URL=redis://127.0.0.1:6379 npm run cluster`,
    );
  }
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const log = options.log ?? ((line: string) => console.log(line));
  checkClusterEnv(options.env);
  const port = options.port ?? Number(options.env.PORT || 5001);
  const apiPorts = options.apiPorts ?? Array.from({ length: options.apis ?? 2 }, (_, i) => port + 1 + i);
  const dataDir = resolve(options.env.DATA_DIR?.trim() || resolve(ROOT, "data"));
  mkdirSync(dataDir, { recursive: true });
  // Every process must agree on the origin (CORS, sign-in with Ethereum) and on the JWT secret: loadConfig writes
  // the secret file once, here, before any process could race to create its own.
  const env: NodeJS.ProcessEnv = {
    ...options.env,
    DATA_DIR: dataDir,
    APP_ORIGIN: options.env.APP_ORIGIN || `http://localhost:${port}`,
    LOG_LEVEL: options.env.LOG_LEVEL || "warn",
    // The APIs sit behind our loopback proxy: per-client rate limits need the address it forwards.
    TRUST_PROXY: options.env.TRUST_PROXY || "loopback",
  };
  const config = loadConfig({ ...env, PORT: String(port) });

  const stops: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) await stop().catch((error) => log(`[cluster] ${String(error)}`));
  };
  try {
    const anvil: Anvil | null = await startChainIfNeeded({ rpcUrl: config.rpcUrl, chainId: config.chainId, dataDir });
    if (anvil) stops.push(() => anvil.stop());
    const deployment = await deployContracts(config.rpcUrl, dataDir);
    if (config.chainId === LOCAL_CHAIN_ID) await fundDemoWallets(config.rpcUrl, deployment);
    // Demo accounts on the local chain only: any other chain is real money, and its APIs would refuse them.
    const logins = await prepareDatabase(config, options.seed !== false && config.chainId === LOCAL_CHAIN_ID);

    const exited = (name: string) => (code: number | null) => options.onExit?.(name, code);
    const indexer = launch("indexer", ["scripts/indexer.ts"], { ...env, INDEXER_POLL_MS: env.INDEXER_POLL_MS || (config.chainId === LOCAL_CHAIN_ID ? "100" : "1000") }, log, exited("indexer"));
    stops.push(indexer.stop);
    const apis = apiPorts.map((apiPort, i) => {
      const api = launch(`api-${i + 1}`, ["api/src/server.ts"], { ...env, PORT: String(apiPort) }, log, exited(`api-${i + 1}`));
      stops.push(api.stop);
      return { ...api, port: apiPort, url: `http://127.0.0.1:${apiPort}` };
    });
    await Promise.all(apis.map((api) => waitForHealth(api.url, api.child)));

    const proxy = await startProxy({ backends: apis.map((api) => api.url), port, onRoute: options.onRoute });
    stops.push(() => proxy.close());
    return {
      url: proxy.url,
      proxy,
      apis: apis.map((api) => ({ name: api.name, pid: api.child.pid!, url: api.url, port: api.port })),
      indexer: { name: "indexer", pid: indexer.child.pid! },
      config,
      deployment,
      logins,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** Migrations once (not raced by every process) and the demo accounts, then this connection is closed. */
async function prepareDatabase(config: AppConfig, seed: boolean): Promise<DemoLogin[]> {
  const { connectDatabase } = await import("#db/connect");
  const database = await connectDatabase({ databaseUrl: config.databaseUrl, maxConnections: 2 }).catch((error: unknown) => {
    throw new ClusterSetupError(`Could not open DATABASE_URL: ${error instanceof Error ? error.message : String(error)}`);
  });
  try {
    if (!seed) return [];
    const { seedDemo } = await import("./seed");
    return await seedDemo(database.db);
  } finally {
    await database.close();
  }
}

/** A TypeScript entry point of the project as a child process, its output prefixed with its name. */
function launch(name: string, args: string[], env: NodeJS.ProcessEnv, log: (line: string) => void, onExit: (code: number | null) => void) {
  // Its own process group: a terminal's Ctrl-C reaches only the cluster, which then stops each child exactly once
  // (a second signal makes the indexer exit without finishing its batch).
  const guard = pathToFileURL(resolve(ROOT, "scripts/exitWithParent.ts")).href;
  const child = spawn(process.execPath, ["--import", "tsx", "--import", guard, ...args], { cwd: ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe", "ipc"] });
  for (const stream of [child.stdout!, child.stderr!]) {
    let partial = "";
    stream.on("data", (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split("\n");
      partial = lines.pop()!;
      for (const line of lines) log(`[${name}] ${line}`);
    });
  }
  let stopping = false;
  const exited = new Promise<void>((resolveExit) =>
    child.once("exit", (code) => {
      if (!stopping) onExit(code);
      resolveExit();
    }),
  );
  return {
    name,
    child,
    /** SIGTERM: the API finishes its requests, the indexer its batch; SIGKILL if either takes over 15 s. */
    async stop() {
      stopping = true;
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new ClusterSetupError(`the API process for ${url} exited with code ${child.exitCode} (its output is above)`);
    try {
      const answer = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (answer.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new ClusterSetupError(`the API process for ${url} did not answer /api/health within 2 minutes`);
}

async function main(): Promise<void> {
  const apis = Number(process.argv.find((a) => a.startsWith("--apis="))?.split("=")[1] ?? 2);
  let cluster: Cluster | undefined;
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    console.log("\n[cluster] stopping…");
    await cluster?.stop();
    process.exit(code);
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => void stop(0));
  try {
    cluster = await startCluster({
      env: process.env,
      apis,
      seed: !process.argv.includes("--no-seed"),
      onExit: (name, code) => {
        console.error(`[cluster] ${name} exited (code ${code}); stopping the rest`);
        void stop(1);
      },
    });
  } catch (error) {
    const known = error instanceof ClusterSetupError || error instanceof ConfigError;
    console.error(known ? (error as Error).message : error);
    process.exit(1);
  }
  const lines = [
    "",
    `  LoanMint cluster at ${cluster.url}`,
    ...cluster.apis.map((api) => `    ${api.name}   ${api.url}   pid ${api.pid}`),
    `    indexer  (one writer)   pid ${cluster.indexer.pid}`,
    `  chain ${cluster.config.rpcUrl} (id ${cluster.deployment.chainId})   data ${cluster.config.dataDir}`,
    ...(cluster.logins.length ? ["", "  Demo logins:", ...cluster.logins.map((l) => `    ${l.role.padEnd(9)} ${l.email.padEnd(28)} ${l.password}`)] : []),
    "",
    "  Press Ctrl-C to stop.",
    "",
  ];
  console.log(lines.join("\n"));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
