import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { runTypecheck } from "./typecheck.mjs";

// The typecheck gate of `npm test` (scripts/test.mjs runs runTypecheck on the repository's tsconfig.json first):
// here it runs on a tiny project of its own, so the test takes about a second, not the whole repository's check.
const dir = mkdtempSync(join(tmpdir(), "lm-typecheck-"));
after(() => rmSync(dir, { recursive: true, force: true }));

writeFileSync(
  join(dir, "tsconfig.json"),
  JSON.stringify({ compilerOptions: { strict: true, noEmit: true, skipLibCheck: true, types: [], lib: ["ES2023"] }, include: ["*.ts"] }),
);

test("the typecheck gate fails on a planted type error and names it", () => {
  writeFileSync(join(dir, "planted.ts"), `export const total: number = "not a number";\n`);
  const result = runTypecheck({ cwd: dir, stdio: "pipe" });
  assert.deepEqual({ passed: result.passed, failed: result.failed, skipped: result.skipped }, { passed: 0, failed: 1, skipped: [] });
  assert.match(result.output, /planted\.ts\(1,14\): error TS2322/);
});

test("the typecheck gate passes a project without type errors", () => {
  writeFileSync(join(dir, "planted.ts"), `export const total: number = 42;\n`);
  const result = runTypecheck({ cwd: dir, stdio: "pipe" });
  assert.equal(result.output, "");
  assert.deepEqual({ passed: result.passed, failed: result.failed }, { passed: 1, failed: 0 });
});
