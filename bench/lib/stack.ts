// `npm start` in miniature for the browser benches: its own chain, PGlite and data directory, never the machine's
// shared services, ready once the start-up banner is printed (after the living demo, so its loans, mints and
// indexing do not share the CPU with the first pages measured).
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..", "..");

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/** `npm start` in miniature: its own chain, PGlite and data directory, never the machine's shared services. */
export async function startStack(): Promise<{ url: string; stop: () => Promise<void> }> {
  const [port, rpcPort] = [await freePort(), await freePort()];
  const dataDir = mkdtempSync(join(tmpdir(), "loanmint-bench-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    RPC_URL: `http://127.0.0.1:${rpcPort}`,
    DATA_DIR: dataDir,
    APP_ORIGIN: `http://localhost:${port}`,
    LOG_LEVEL: "warn",
    PATH: `${join(root, "node_modules", ".bin")}:${process.env.PATH}`,
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const child: ChildProcess = spawn("node", ["--import", "tsx", "scripts/start.ts"], { cwd: root, env, stdio: ["ignore", "pipe", "inherit"], detached: true });
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const url = `http://localhost:${port}`;
  // Ready when start.ts prints its banner, after the living demo, not at the first /api/health: the demo's
  // loans, mints and indexing would otherwise share the CPU with the first pages measured.
  let ready = false;
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    if (ready) return;
    output += chunk.toString();
    ready = output.includes("LoanMint is running at");
  });
  const deadline = Date.now() + 300_000;
  while (!ready) {
    if (child.exitCode !== null) throw new Error(`scripts/start.ts exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error("The stack did not finish starting within 5 minutes");
    await new Promise((done) => setTimeout(done, 500));
  }
  return {
    url,
    stop: async () => {
      if (child.exitCode === null) process.kill(-child.pid!, "SIGTERM");
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
