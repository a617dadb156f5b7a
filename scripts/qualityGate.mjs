// The quality gate of `npm test`: the formatter, solhint, ESLint and the TypeScript compiler, each a test that
// fails on any finding (warnings included). scripts/test.mjs runs it first and stops there when it fails, so a
// finding is named in about a minute, before any chain starts. scripts/qualityGate.test.ts runs the same checks
// with the repository's own configuration on a tiny project with planted findings.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const modules = join(dirname(fileURLToPath(import.meta.url)), "..", "node_modules");

/** A package's command-line entry, run with this Node whatever PATH says. */
function binOf(pkg, name = pkg) {
  const { bin } = JSON.parse(readFileSync(join(modules, pkg, "package.json"), "utf8"));
  return join(modules, pkg, typeof bin === "string" ? bin : bin[name]);
}

/** Cheapest first; each runs in the project directory it is given. */
export const CHECKS = [
  { name: "format", what: "prettier --check .", args: () => [binOf("prettier"), "--check", "--log-level=warn", "."] },
  { name: "solhint", what: "solhint contracts/**/*.sol", args: () => [binOf("solhint"), "--disc", "--max-warnings=0", "contracts/**/*.sol"] },
  { name: "eslint", what: "eslint .", args: () => [binOf("eslint"), "--max-warnings=0", "."] },
  { name: "typecheck", what: "tsc -p tsconfig.json --noEmit", args: () => [binOf("typescript", "tsc"), "-p", "tsconfig.json", "--noEmit"] },
];

/**
 * Runs the named checks (all by default) side by side in `cwd` and counts each as one test.
 * `quiet` keeps the tools' output in `output` only (the gate's own test); otherwise each check prints its
 * findings and a line when it ends.
 */
export async function runQualityGate({ cwd, checks = CHECKS.map((c) => c.name), quiet = false }) {
  const chosen = CHECKS.filter((c) => checks.includes(c.name));
  const results = await Promise.all(chosen.map((check) => runCheck(check, cwd, quiet)));
  const failedChecks = results.filter((r) => !r.ok).map((r) => r.name);
  return {
    passed: results.length - failedChecks.length,
    failed: failedChecks.length,
    skipped: [],
    failedChecks,
    output: results.map((r) => r.output).join(""),
  };
}

function runCheck(check, cwd, quiet) {
  const started = Date.now();
  return new Promise((resolveCheck) => {
    const child = spawn(process.execPath, check.args(), { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", (error) => (output += `${error.message}\n`));
    child.on("close", (code, signal) => {
      const ok = code === 0;
      if (!quiet) {
        const seconds = ((Date.now() - started) / 1000).toFixed(0);
        if (ok) console.log(`  ✓ ${check.name}: ${check.what} (${seconds} s)`);
        else console.log(`${output.trimEnd()}\n  ✗ ${check.name}: ${check.what} reported findings (exit ${code ?? signal}, ${seconds} s)`);
      }
      resolveCheck({ name: check.name, ok, output });
    });
  });
}
