import type { ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "#devchain/anvil";
import { ownFolder, releaseFolder, sleep, spawnOwned, stopChild, tail } from "./privateProcess";

/** A redis-server of the test's own on a free port, to stop and start at will; the machine's (6379) is never touched. */
export interface PrivateRedis {
  url: string;
  port: number;
  running(): boolean;
  /** Ends the server (nothing is persisted: it comes back empty, as a Redis without persistence does). */
  stop(): Promise<void>;
  /** Starts again on the same port; resolves once it answers PING. */
  start(): Promise<void>;
  destroy(): Promise<void>;
}

/** True when something on the port answers PING with PONG. */
function pong(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once("error", () => done(false));
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (data) => done(data.toString().startsWith("+PONG")));
  });
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const dir = ownFolder(mkdtempSync(join(tmpdir(), "lm-redis-")));
  const port = await freePort();
  let server: ChildProcess | null = null;

  async function start(): Promise<void> {
    if (server) return;
    const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir, "--protected-mode", "no", "--loglevel", "warning"];
    const child = spawnOwned("redis-server", args, { stdio: ["ignore", "pipe", "pipe"] });
    server = child;
    const log = tail(child, "stdout");
    for (let attempt = 0; attempt < 200; attempt++) {
      if (child.exitCode !== null) break;
      if (await pong(port)) return;
      await sleep(50);
    }
    server = null;
    await stopChild(child, "SIGKILL");
    throw new Error(`the private redis-server on port ${port} did not start:\n${log()}`);
  }

  async function stop(): Promise<void> {
    const child = server;
    server = null;
    if (child) await stopChild(child, "SIGTERM");
  }

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    running: () => server !== null,
    start,
    stop,
    async destroy() {
      await stop();
      releaseFolder(dir);
    },
  };
}
