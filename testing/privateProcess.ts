import { execFileSync, spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";

/**
 * Server processes a fault test starts (its private PostgreSQL, Redis): each is ended, and its folder removed,
 * when the test process exits for any reason, so a failed or interrupted test never leaves one running.
 */
const live = new Map<ChildProcess, NodeJS.Signals>();
const folders = new Set<string>();
let hooked = false;

/** Gone or a zombie: nothing writes into its folder any more (the exit handler cannot reap children). */
function gone(pid: number | undefined): boolean {
  if (pid === undefined) return true;
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.startsWith("Z") ?? true;
  } catch {
    return true;
  }
}

function endAll(): void {
  const ending = [...live].filter(([child]) => child.exitCode === null && child.signalCode === null);
  for (const [child, signal] of ending) child.kill(signal);
  // Synchronous (an exit handler cannot await): up to 5 s for the servers to go before their folders are removed.
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let waited = 0; waited < 5000 && !ending.every(([child]) => gone(child.pid)); waited += 50) Atomics.wait(pause, 0, 0, 50);
  for (const folder of folders) {
    try {
      rmSync(folder, { recursive: true, force: true });
    } catch {
      // A server still shutting down may write into it; the folder is in the temp dir.
    }
  }
}

function hook(): void {
  if (hooked) return;
  hooked = true;
  process.once("exit", endAll);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      endAll();
      process.kill(process.pid, signal);
    });
  }
}

/** A folder removed at exit unless removed before. */
export function ownFolder(folder: string): string {
  hook();
  folders.add(folder);
  return folder;
}

export function releaseFolder(folder: string): void {
  rmSync(folder, { recursive: true, force: true });
  folders.delete(folder);
}

/** Spawns a server process that `killOnExit` (e.g. SIGQUIT, PostgreSQL's immediate shutdown) ends with this one. */
export function spawnOwned(command: string, args: string[], options: SpawnOptions, killOnExit: NodeJS.Signals = "SIGKILL"): ChildProcess {
  hook();
  const child = spawn(command, args, options);
  live.set(child, killOnExit);
  child.once("exit", () => live.delete(child));
  return child;
}

/** A child started elsewhere (e.g. devchain's anvil) ended with this process too. */
export function endOnExit(child: ChildProcess, signal: NodeJS.Signals = "SIGKILL"): void {
  hook();
  if (child.exitCode !== null || child.signalCode !== null) return;
  live.set(child, signal);
  child.once("exit", () => live.delete(child));
}

/** Resolves when the child has exited (at once if it already has). */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

/** Sends `signal`, and SIGKILL if the child is still there after `graceMs`. */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill(signal);
  const killer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited(child);
  clearTimeout(killer);
}

/** The uid and gid of a system account (root may not run PostgreSQL itself). */
export function accountIds(name: string): { uid: number; gid: number } {
  const uid = Number(execFileSync("id", ["-u", name], { encoding: "utf8" }).trim());
  const gid = Number(execFileSync("id", ["-g", name], { encoding: "utf8" }).trim());
  return { uid, gid };
}

/** The last lines a child wrote to a stream, for the error when it does not come up. */
export function tail(child: ChildProcess, stream: "stdout" | "stderr", lines = 20): () => string {
  let text = "";
  child[stream]?.on("data", (chunk: Buffer) => {
    text = (text + chunk.toString()).split("\n").slice(-lines).join("\n");
  });
  return () => text;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for `work` at most `ms`, so a clean-up step that hangs (the bug under test) cannot keep the next one from running. */
export async function atMost(ms: number, work: Promise<unknown> | undefined): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work?.catch(() => {}), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
