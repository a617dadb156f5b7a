// Benches put the server, the clients and the measuring apart in processes of their own, so one event loop
// never slows the other's figures; they talk over the IPC channel node gives a child.
import { spawn, type ChildProcess } from "node:child_process";

interface Request {
  id: number;
  type: string;
  data?: unknown;
}
interface Reply {
  id: number;
  ready?: boolean;
  result?: unknown;
  error?: string;
}

export interface Child {
  process: ChildProcess;
  /** Asks the child to do `type` and resolves with its answer. */
  request<T = unknown>(type: string, data?: unknown): Promise<T>;
  /** Ends the child (SIGTERM, then SIGKILL after 5 s) and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Runs `file` again as a child with `--role=<role>` (same loader flags, so TypeScript works) and an IPC channel.
 * `nodeArgs` e.g. ["--expose-gc"], so a memory figure can be taken after a full collection.
 */
export function spawnRole(file: string, role: string, options: { env?: NodeJS.ProcessEnv; nodeArgs?: string[] } = {}): Child {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...process.execArgv, file, `--role=${role}`], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    env: { ...process.env, ...options.env },
  });
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let next = 1;
  // Requests wait for the child's handlers: a message sent while it is still importing would go unanswered.
  let markReady: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const exited = new Promise<void>((resolve) =>
    child.once("exit", (code, signal) => {
      for (const waiter of pending.values()) waiter.reject(new Error(`${role} exited (${signal ?? code}) before answering`));
      pending.clear();
      resolve();
    }),
  );
  child.on("message", (message: Reply) => {
    if (message.ready) return markReady();
    const waiter = pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id);
    if (message.error !== undefined) waiter.reject(new Error(`${role}: ${message.error}`));
    else waiter.resolve(message.result);
  });
  return {
    process: child,
    request<T>(type: string, data?: unknown) {
      const id = next++;
      return new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
        void ready.then(() => child.send({ id, type, data } satisfies Request));
      });
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(killer);
    },
  };
}

/** The role this process was started with by spawnRole, or null for the bench's own entry. */
export function currentRole(): string | null {
  const flag = process.argv.find((arg) => arg.startsWith("--role="));
  return flag ? flag.slice("--role=".length) : null;
}

/** In a child: answers the parent's requests with `handlers`; SIGTERM runs `onStop` and exits. */
export function serveRole(handlers: Record<string, (data: any) => unknown>, onStop: () => Promise<void> = async () => {}): void {
  process.on(
    "message",
    (message: Request) =>
      void (async () => {
        const handler = handlers[message.type];
        try {
          if (!handler) throw new Error(`no handler for ${message.type}`);
          process.send!({ id: message.id, result: await handler(message.data) } satisfies Reply);
        } catch (error) {
          process.send!({ id: message.id, error: error instanceof Error ? error.message : String(error) } satisfies Reply);
        }
      })(),
  );
  process.send!({ id: 0, ready: true } satisfies Reply);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    onStop().then(
      () => process.exit(0),
      (error) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", stop);
  // The parent died without stopping us: do not stay behind holding ports and databases.
  process.once("disconnect", stop);
}
