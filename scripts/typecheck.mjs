// The typecheck gate of `npm test`: `tsc -p <project> --noEmit` as a suite of one test, passed when the
// compiler reports no error and failed otherwise. scripts/test.mjs runs it first, before any chain starts,
// so a type error is named in seconds rather than after the long suites.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** The TypeScript compiler of this repository's own `typescript` package, whatever PATH says. */
export const TSC = require.resolve("typescript/bin/tsc");

/**
 * Runs tsc on `project` (a tsconfig path relative to `cwd`) without emitting anything.
 * `stdio: "inherit"` shows the compiler's errors; "pipe" keeps them in `output` (the gate's own test).
 */
export function runTypecheck({ cwd, project = "tsconfig.json", stdio = "inherit" }) {
  const result = spawnSync(process.execPath, [TSC, "-p", project, "--noEmit"], { cwd, stdio, encoding: "utf8" });
  const ok = result.status === 0;
  if (!ok && stdio === "inherit") console.log(`  ✗ typecheck: tsc -p ${project} --noEmit reported errors (exit ${result.status ?? result.signal})`);
  return {
    passed: ok ? 1 : 0,
    failed: ok ? 0 : 1,
    skipped: [],
    output: `${result.stdout ?? ""}${result.stderr ?? ""}`,
  };
}
