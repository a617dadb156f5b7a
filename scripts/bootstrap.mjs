#!/usr/bin/env node
// Entry point of every npm script. It runs on whatever Node the machine has (20 here) and hands over
// to the project's pinned Node 22: Hardhat 3 refuses Node 20, and `npm ci` must itself run on Node 22
// or npm silently skips Hardhat's native EDR binding (see shared/notes/toolchain.md).
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const NODE_VERSION = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).devDependencies.node;
const bin = join(root, "node_modules", ".bin");
const pinnedNode = join(bin, "node");
const installStamp = join(root, "node_modules", ".loanmint-install");
const CHROMIUM = "/usr/lib/chromium/chromium";

const commands = {
  start: ["--import", "tsx", "scripts/start.ts"],
  dev: ["--import", "tsx", "scripts/start.ts", "--dev"],
  reset: ["--import", "tsx", "scripts/reset.ts"],
  test: ["scripts/test.mjs"],
  // Any other tool of the project (hardhat, tsx, vite, playwright…) on Node 22: `bootstrap.mjs exec hardhat build`.
  exec: [],
  // The same for tools that drive Debian's Chromium (Playwright, Lighthouse): installs it first where missing.
  "exec-browser": [],
};

const [command, ...rest] = process.argv.slice(2);
if (!commands[command]) {
  console.error(`usage: node scripts/bootstrap.mjs <${Object.keys(commands).join("|")}> [args]`);
  process.exit(2);
}

ensureInstalled();
if (command === "test" || command === "exec-browser") ensureChromium();
if (command.startsWith("exec")) run(rest[0], rest.slice(1));
else run(pinnedNode, [...commands[command], ...rest]);

function lockHash() {
  return createHash("sha256")
    .update(readFileSync(join(root, "package-lock.json")))
    .update(NODE_VERSION)
    .digest("hex");
}

/** Installs with `npm ci` on Node 22 when node_modules is missing or was installed from another lockfile. */
function ensureInstalled() {
  const wanted = lockHash();
  if (existsSync(pinnedNode) && existsSync(installStamp) && readFileSync(installStamp, "utf8") === wanted) return;
  const npmCli = findNpmCli();
  console.log(`[loanmint] installing packages with Node ${NODE_VERSION} (first run only, about a minute)…`);
  // Only errors: the peer-dependency warnings of a clean install are nothing a person starting the project can act on.
  const result = spawnSync("npx", ["-y", `node@${NODE_VERSION}`, npmCli, "ci", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, npm_config_yes: "true", npm_config_update_notifier: "false" },
  });
  if (result.status !== 0) {
    console.error("[loanmint] npm ci failed; see the output above.");
    process.exit(result.status ?? 1);
  }
  writeFileSync(installStamp, wanted);
}

function findNpmCli() {
  if (process.env.npm_execpath && existsSync(process.env.npm_execpath)) return process.env.npm_execpath;
  const which = spawnSync("sh", ["-c", "command -v npm"], { encoding: "utf8" });
  return realpathSync(which.stdout.trim());
}

/** Browser tests need Debian's Chromium: Playwright's own download cannot work on these machines. */
function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  if (process.getuid?.() !== 0) {
    console.error(`[loanmint] Chromium is missing at ${CHROMIUM}: run 'sudo apt-get install -y chromium fonts-noto-color-emoji'.`);
    process.exit(1);
  }
  console.log("[loanmint] installing Chromium for the browser tests (first run only)…");
  const apt = (args) => spawnSync("apt-get", args, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  apt(["update", "-q"]);
  if (apt(["install", "-y", "-q", "chromium", "fonts-noto-color-emoji"]).status !== 0) process.exit(1);
}

/** Runs the command on Node 22 and forwards Ctrl-C / SIGTERM so every child process stops with it. */
function run(program, args) {
  const env = { ...process.env, PATH: `${bin}:${process.env.PATH}` };
  const child = spawn(program, args, { cwd: root, stdio: "inherit", env });
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.on(signal, () => child.kill(signal));
  }
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 130 : 1)));
}
