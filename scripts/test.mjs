// Runs every suite — the quality gate, contracts, domain/db/api/indexer against a real database and chain,
// and the browser journeys — names every skipped test with its reason, and closes with one line:
// "N passed, N failed, N skipped". Under CI=true a skip because the machine lacks something fails.
// A failing gate ends the run there: nothing else is worth the minutes until the code is clean.
import { spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { inCi, judgeSkips, playwrightResults, summaryLine } from "./skips.mjs";
import { runQualityGate } from "./qualityGate.mjs";

const root = process.cwd();
const tmp = join(root, ".tmp");
mkdirSync(tmp, { recursive: true });
const only = process.argv.slice(2); // e.g. `npm test -- node` runs one suite

const NODE_TEST_GLOBS = [
  "domain/**/*.test.ts",
  "db/**/*.test.ts",
  "api/**/*.test.ts",
  "indexer/**/*.test.ts",
  "scripts/**/*.test.ts",
  "devchain/**/*.test.ts",
  "contracts/*.test.ts",
  "contracts/coverage/**/*.test.ts",
  "app/src/**/*.test.ts",
];

const suites = [
  { name: "gate", run: gateSuite, stopsTheRun: true },
  { name: "contracts", run: contractsSuite },
  { name: "node", run: nodeSuite },
  { name: "e2e", run: e2eSuite },
];

const ci = inCi(process.env);
// Two `npm test` runs side by side each get their own browser stack (API port, chain port, database).
const e2ePorts = process.env.E2E_PORT ? {} : { E2E_PORT: String(await freePort()), E2E_RPC_URL: `http://127.0.0.1:${await freePort()}` };
const totals = { passed: 0, failed: 0, skipped: 0 };
const allSkips = [];
for (const suite of suites) {
  if (only.length && !only.includes(suite.name)) continue;
  console.log(`\n━━ ${suite.name} ━━`);
  const started = Date.now();
  const result = await suite.run();
  const { skipped, failing } = judgeSkips(result.skipped ?? [], { ci });
  for (const failure of failing) console.log(`  ✗ ${failure.name}: skipped in CI, where nothing may be missing (${failure.reason})`);
  const counts = { passed: result.passed, failed: result.failed + failing.length, skipped: skipped.length };
  totals.passed += counts.passed;
  totals.failed += counts.failed;
  totals.skipped += counts.skipped;
  allSkips.push(...skipped);
  console.log(`━━ ${suite.name}: ${summaryLine(counts)} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  if (suite.stopsTheRun && counts.failed > 0) {
    console.log(`\nThe ${suite.name} failed, so the other suites did not run: fix the findings above (\`npm run format\` fixes formatting).`);
    break;
  }
}
console.log("");
if (allSkips.length) console.log("Skipped:");
for (const skip of allSkips) console.log(`  - ${skip.name}: ${skip.reason}`);
console.log(summaryLine(totals));
process.exit(totals.failed > 0 ? 1 : 0);

function sh(command, args, options = {}) {
  return spawnSync(command, args, { stdio: "inherit", cwd: root, env: process.env, ...options });
}

/** A suite that crashed before reporting counts as one failure, never as zero tests. */
function crashed(name, status) {
  console.error(`${name} did not report its results (exit ${status}).`);
  return { passed: 0, failed: 1, skipped: [] };
}

/**
 * The formatter, solhint, ESLint and tsc over the whole repository, one test each (scripts/qualityGate.mjs).
 * It runs first, before any chain starts. The contract tests' types come from the declaration files Hardhat
 * generates under artifacts/, so the contracts are built first (a compile only, no chain; quick when nothing changed).
 */
function gateSuite() {
  const build = sh("hardhat", ["build", "--quiet"]);
  if (build.status !== 0) {
    console.log("  ✗ gate: hardhat build failed, so the contract types are missing");
    return { passed: 0, failed: 1, skipped: [] };
  }
  return runQualityGate({ cwd: root });
}

/** Hardhat's own summary gives the counts; scripts/hardhat-skips.mjs names the skips its reporter hides. */
function contractsSuite() {
  const countsFile = join(tmp, "contract-test-counts.json");
  rmSync(countsFile, { force: true });
  const preload = `--import=${join(root, "scripts", "hardhat-skips.mjs")}`;
  const env = { ...process.env, LOANMINT_TEST_COUNTS: countsFile, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} ${preload}`.trim() };
  const out = spawnSync("hardhat", ["test", "nodejs", "--coverage"], { cwd: root, env, encoding: "utf8", maxBuffer: 64 << 20 });
  process.stdout.write(out.stdout ?? "");
  process.stderr.write(out.stderr ?? "");
  const text = `${out.stdout}\n${out.stderr}`;
  const pass = lastNumber(text, /^\s*(?:ℹ |# )?(?:pass|tests passed:?)\s+(\d+)/gim) ?? lastNumber(text, /(\d+) passing/g);
  const fail = lastNumber(text, /^\s*(?:ℹ |# )?(?:fail|tests failed:?)\s+(\d+)/gim) ?? lastNumber(text, /(\d+) failing/g) ?? 0;
  // Hardhat's coverage has no branches: our probes count them; below 95% counts as a failed test.
  const branches = sh("tsx", ["contracts/coverage/branches.ts", "--min=95"]);
  // Coverage leaves instrumented artifacts behind; later suites deploy the real ones, built once here
  // rather than by test files racing each other.
  sh("tsx", ["-e", "import('./contracts/deploy').then((m) => m.ensureCompiled())"]);
  if (pass === undefined) return crashed("contracts", out.status);
  const failed = (out.status !== 0 && fail === 0 ? 1 : fail) + (branches.status === 0 ? 0 : 1);
  return { passed: pass + (branches.status === 0 ? 1 : 0), failed, skipped: contractSkips(countsFile, text) };
}

/** The skips the preload recorded; a skip Hardhat counted but the preload missed still counts, unnamed. */
function contractSkips(countsFile, text) {
  text = stripVTControlCharacters(text);
  const named = existsSync(countsFile) ? JSON.parse(readFileSync(countsFile, "utf8")).skipped : [];
  const counted = (lastNumber(text, /^\s*(\d+) skipped/gm) ?? 0) + (lastNumber(text, /^\s*(\d+) todo/gm) ?? 0);
  const unnamed = Array.from({ length: Math.max(0, counted - named.length) }, () => ({ name: "contracts (a test Hardhat counted as skipped)", reason: "skip without a recorded reason" }));
  return [...named, ...unnamed];
}

function nodeSuite() {
  const countsFile = join(tmp, "node-test-counts.json");
  rmSync(countsFile, { force: true });
  const files = NODE_TEST_GLOBS;
  const result = sh("node", [
    "--import",
    "tsx",
    "--test",
    "--test-concurrency=2",
    "--test-timeout=300000",
    "--test-reporter=spec",
    "--test-reporter-destination=stdout",
    "--test-reporter=./scripts/test-counter.mjs",
    `--test-reporter-destination=${countsFile}`,
    ...files,
  ]);
  if (!existsSync(countsFile)) return crashed("node", result.status);
  const counts = JSON.parse(readFileSync(countsFile, "utf8"));
  for (const failure of counts.failures) console.log(`  ✗ ${failure}`);
  return counts;
}

function e2eSuite() {
  if (!existsSync(join(root, "playwright.config.ts"))) return { passed: 0, failed: 0, skipped: [] };
  const reportFile = join(root, "test-results", "e2e.json");
  rmSync(reportFile, { force: true });
  const result = sh("playwright", ["test"], { env: { ...process.env, ...e2ePorts, PLAYWRIGHT_JSON_OUTPUT_NAME: reportFile } });
  if (!existsSync(reportFile)) return crashed("e2e", result.status);
  const counts = playwrightResults(JSON.parse(readFileSync(reportFile, "utf8")));
  for (const failure of counts.failures) console.log(`  ✗ ${failure}`);
  return counts;
}

/** A port the OS says is free now; the stack binds it a moment later. */
function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer().once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

function lastNumber(text, pattern) {
  const matches = [...text.matchAll(pattern)];
  return matches.length ? Number(matches.at(-1)[1]) : undefined;
}
