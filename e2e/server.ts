// Starts the whole stack privately for the browser journeys: a fresh data directory, a fresh
// Postgres database, a private chain on its own port, the API serving the built app.
import { spawn, type ChildProcess } from "node:child_process";
import { rmSync, mkdirSync } from "node:fs";
import { resolve } from "node:path";
import pg from "pg";
import { E2E_ADMIN_INVITE, E2E_DATA_DIR, E2E_DB_NAME, E2E_PORT, E2E_RPC_URL, e2eDatabaseUrls } from "./stack";

const root = resolve(import.meta.dirname, "..");
const dataDir = resolve(root, E2E_DATA_DIR);
rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });

const { admin, e2e } = e2eDatabaseUrls();
const client = new pg.Client({ connectionString: admin });
await client.connect();
await client.query(`drop database if exists "${E2E_DB_NAME}" with (force)`);
await client.query(`create database "${E2E_DB_NAME}"`);
await client.end();

const env = {
  ...process.env,
  PORT: String(E2E_PORT),
  DATA_DIR: dataDir,
  RPC_URL: E2E_RPC_URL,
  DATABASE_URL: e2e,
  ADMIN_INVITE_CODE: E2E_ADMIN_INVITE,
  APP_ORIGIN: `http://localhost:${E2E_PORT}`,
  LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
  // Every journey signs up from 127.0.0.1: a private stack allows more, and never shares Redis counters with other runs.
  RATE_LIMIT_SCALE: "50",
  KV_PREFIX: `e2e-${E2E_PORT}-${Date.now()}:`,
  PATH: `${resolve(root, "node_modules/.bin")}:${process.env.PATH}`,
};

// The same start-up as `npm start` (chain, contracts, app build, API, demo accounts), so the journeys
// run against what a user gets; --no-demo leaves out the demo loans.
const child: ChildProcess = spawn("node", ["--import", "tsx", "scripts/start.ts", "--no-demo"], { cwd: root, env, stdio: "inherit" });
const stop = () => child.kill("SIGTERM");
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
child.on("exit", (code) => process.exit(code ?? 0));
