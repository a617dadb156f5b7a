import { execFile, type ChildProcess } from "node:child_process";
import { chownSync, existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";
import { freePort } from "#devchain/anvil";
import { accountIds, ownFolder, releaseFolder, sleep, spawnOwned, stopChild, tail } from "./privateProcess";

/**
 * A PostgreSQL server of the test's own, on a free port, that the test may stop and start at will; the
 * machine's shared server (5432) is never touched. It runs as the `postgres` account when the tests run as
 * root (PostgreSQL refuses root), and is ended at exit however the test ends.
 */
export interface PrivatePostgres {
  /** Connection string of the `postgres` database, as the `postgres` role (trust authentication). */
  url: string;
  port: number;
  /** The URL of another database on this server. */
  urlOf(database: string): string;
  running(): boolean;
  /** Fast shutdown, as an operator's `pg_ctl stop`: open sessions are ended, the data stays. */
  stop(): Promise<void>;
  /** Starts again on the same port and data; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops it and deletes its data. */
  destroy(): Promise<void>;
}

const runFile = promisify(execFile);

/** initdb and postgres: PG_BIN, else PATH, else the Debian layout. */
function binary(name: string): string {
  const dirs = [process.env.PG_BIN, ...(process.env.PATH ?? "").split(delimiter), "/usr/local/bin", "/usr/lib/postgresql/15/bin"];
  for (const dir of dirs) if (dir && existsSync(join(dir, name))) return join(dir, name);
  throw new Error(`${name} (PostgreSQL) is not installed: set PG_BIN to the folder that holds it`);
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const root = ownFolder(mkdtempSync(join(tmpdir(), "lm-pg-")));
  const account = process.getuid?.() === 0 ? accountIds("postgres") : null;
  if (account) chownSync(root, account.uid, account.gid);
  const data = join(root, "data");
  const env = { PATH: process.env.PATH ?? "", LANG: "C", LC_ALL: "C" };
  const as = account ? { uid: account.uid, gid: account.gid } : {};
  await runFile(binary("initdb"), ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"], { ...as, env, cwd: root });
  const port = await freePort();
  const url = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  let server: ChildProcess | null = null;

  async function start(): Promise<void> {
    if (server) return;
    const child = spawnOwned(
      binary("postgres"),
      // Durability is not what these tests are about: no fsync keeps a stop/start cheap on a shared machine.
      ["-D", data, "-p", String(port), "-h", "127.0.0.1", "-k", root, "-c", "fsync=off", "-c", "full_page_writes=off", "-c", "max_connections=50", "-c", "shared_buffers=16MB"],
      { ...as, env, cwd: root, stdio: ["ignore", "ignore", "pipe"] },
      "SIGQUIT",
    );
    server = child;
    const log = tail(child, "stderr");
    const { default: pg } = await import("pg");
    for (let attempt = 0; attempt < 300; attempt++) {
      if (child.exitCode !== null) break;
      const client = new pg.Client({ connectionString: url("postgres"), connectionTimeoutMillis: 1000 });
      try {
        await client.connect();
        await client.query("select 1");
        await client.end();
        return;
      } catch {
        await client.end().catch(() => {});
        await sleep(100);
      }
    }
    server = null;
    await stopChild(child, "SIGQUIT");
    throw new Error(`the private PostgreSQL on port ${port} did not start:\n${log()}`);
  }

  async function stop(): Promise<void> {
    const child = server;
    server = null;
    if (child) await stopChild(child, "SIGINT");
  }

  await start();
  return {
    url: url("postgres"),
    port,
    urlOf: url,
    running: () => server !== null,
    start,
    stop,
    async destroy() {
      await stop();
      releaseFolder(root);
    },
  };
}
