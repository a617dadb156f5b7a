import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createServer } from "node:net";

export interface AnvilOptions {
  /** Port on 127.0.0.1; a free one is picked when omitted. */
  port?: number;
  /** Keeps the chain's state in this file across restarts (written every few seconds and on exit). */
  stateFile?: string;
  /** Seconds between blocks; omitted = a block per transaction. */
  blockTime?: number;
  /** Seconds between state dumps when stateFile is set. */
  stateInterval?: number;
  silent?: boolean;
  /** Unix time of the genesis block; omitted = now. Two chains given different ones never share a genesis hash. */
  genesisTimestamp?: number;
  /** Default 31337, the local chain; another id plays a public chain with the same well-known funded accounts. */
  chainId?: number;
}

export interface Anvil {
  rpcUrl: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

const require = createRequire(import.meta.url);

/** The platform binary itself: its JS wrapper would leave the node running when killed. */
export function anvilBinary(): string {
  const pkg = `@foundry-rs/anvil-${process.platform}-${process.arch === "x64" ? "amd64" : process.arch}`;
  return join(dirname(require.resolve(`${pkg}/package.json`)), "bin", "anvil");
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts a private anvil (chain id 31337 unless told, the well-known dev accounts) and waits until it answers. */
export async function startAnvil(options: AnvilOptions = {}): Promise<Anvil> {
  const port = options.port ?? (await freePort());
  const args = ["--host", "127.0.0.1", "--port", String(port), "--chain-id", String(options.chainId ?? 31337)];
  if (options.stateFile) args.push("--state", options.stateFile, "--state-interval", String(options.stateInterval ?? 5));
  if (options.blockTime) args.push("--block-time", String(options.blockTime));
  if (options.genesisTimestamp !== undefined) args.push("--timestamp", String(options.genesisTimestamp));
  const child = spawn(anvilBinary(), args, { stdio: options.silent === false ? "inherit" : "ignore" });
  const rpcUrl = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await waitForRpc(rpcUrl, child);
  return {
    rpcUrl,
    port,
    process: child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM"); // SIGTERM lets anvil write its state file
      const killer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(killer);
    },
  };
}

/** True when something answers eth_chainId at the URL. */
export async function rpcAnswers(rpcUrl: string): Promise<boolean> {
  try {
    const response = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      // Nothing listening is refused at once; a node that is there may be slow to answer (a loaded machine, a remote RPC).
      signal: AbortSignal.timeout(5000),
    });
    return response.ok;
  } catch {
    return false;
  }
}

async function waitForRpc(rpcUrl: string, child: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (child.exitCode !== null) throw new Error(`anvil exited with code ${child.exitCode} before answering at ${rpcUrl}`);
    if (await rpcAnswers(rpcUrl)) return;
    await sleep(50);
  }
  child.kill("SIGKILL");
  throw new Error(`anvil did not answer at ${rpcUrl} within 10 s`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
