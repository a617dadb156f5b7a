import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { runQualityGate } from "./qualityGate.mjs";

// The gate of `npm test` with the repository's own configuration files, on a tiny project of its own so each run
// takes seconds, not the whole repository's. The project sits under .tmp/ inside the repository, where the
// configurations find their plugins in node_modules, and which the repository's own gate ignores.
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
mkdirSync(join(root, ".tmp"), { recursive: true });
const dir = mkdtempSync(join(root, ".tmp", "gate-"));

const CLEAN_TS = `export function total(values: number[]): number {\n  return values.reduce((sum, value) => sum + value, 0);\n}\n`;
const CLEAN_SOL = `// SPDX-License-Identifier: MIT\npragma solidity ^0.8.28;\n\ncontract Clean {\n    uint256 public count;\n\n    function bump() external {\n        count += 1;\n    }\n}\n`;

function plant(path: string, text: string): void {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
}

async function gateWith(path: string, text: string) {
  plant(path, text);
  try {
    return await runQualityGate({ cwd: dir, quiet: true });
  } finally {
    rmSync(join(dir, path));
  }
}

before(() => {
  for (const file of ["eslint.config.js", ".prettierrc.json", ".prettierignore", ".solhint.json"]) copyFileSync(join(root, file), join(dir, file));
  const { compilerOptions } = JSON.parse(readFileSync(join(root, "tsconfig.json"), "utf8"));
  plant("tsconfig.json", `${JSON.stringify({ compilerOptions, include: ["src", "app"] })}\n`);
  writeFileSync(join(dir, ".prettierignore"), "tsconfig.json\n", { flag: "a" });
  plant("src/clean.ts", CLEAN_TS);
  plant("contracts/Clean.sol", CLEAN_SOL);
});
after(() => rmSync(dir, { recursive: true, force: true }));

describe("the quality gate", () => {
  test("passes a clean project, one test per check", async () => {
    const result = await runQualityGate({ cwd: dir, quiet: true });
    assert.deepEqual({ passed: result.passed, failed: result.failed, failedChecks: result.failedChecks }, { passed: 4, failed: 0, failedChecks: [] }, result.output);
  });

  test("fails on a planted unused import, in ESLint and in tsc", async () => {
    const result = await gateWith("src/unusedImport.ts", `import { join } from "node:path";\n\nexport const answer = 42;\n`);
    assert.deepEqual(result.failedChecks, ["eslint", "typecheck"], result.output);
    assert.match(stripVTControlCharacters(result.output), /1:10\s+error\s+'join' is defined but never used.*@typescript-eslint\/no-unused-vars/);
    assert.match(stripVTControlCharacters(result.output), /unusedImport\.ts\(1,1\): error TS6133/);
  });

  test("fails on a planted floating promise", async () => {
    const result = await gateWith("src/floating.ts", `export async function save(): Promise<void> {}\n\nexport function onClick(): void {\n  save();\n}\n`);
    assert.deepEqual(result.failedChecks, ["eslint"], result.output);
    assert.match(stripVTControlCharacters(result.output), /4:3\s+error\s+Promises must be awaited.*@typescript-eslint\/no-floating-promises/);
  });

  test("fails on a planted promise handed to a place that ignores it", async () => {
    const result = await gateWith("src/misused.ts", `export function listen(target: EventTarget, save: () => Promise<void>): void {\n  target.addEventListener("click", save);\n}\n`);
    assert.deepEqual(result.failedChecks, ["eslint"], result.output);
    assert.match(stripVTControlCharacters(result.output), /@typescript-eslint\/no-misused-promises/);
  });

  test("fails on a planted hook called under a condition in the app", async () => {
    const result = await gateWith(
      "app/src/Planted.tsx",
      `import { useState } from "react";\n\nexport function Planted({ open }: { open: boolean }) {\n  if (!open) return null;\n  const [count] = useState(0);\n  return <p>{count}</p>;\n}\n`,
    );
    assert.deepEqual(result.failedChecks, ["eslint"], result.output);
    assert.match(stripVTControlCharacters(result.output), /react-hooks\/rules-of-hooks/);
  });

  test("fails on a planted misformatted file and names it", async () => {
    const result = await gateWith("src/misformatted.ts", `export const answer =   42\n`);
    assert.deepEqual(result.failedChecks, ["format"], result.output);
    // Prettier colours its output where the environment asks for colour (CI does): the file's name is read without it.
    assert.match(stripVTControlCharacters(result.output), /\[warn\] src\/misformatted\.ts/);
  });

  test("fails on a planted solhint finding", async () => {
    const result = await gateWith(
      "contracts/Planted.sol",
      `// SPDX-License-Identifier: MIT\npragma solidity ^0.8.28;\n\ncontract Planted {\n    function onlyPeople() external view returns (bool) {\n        return tx.origin == msg.sender;\n    }\n}\n`,
    );
    assert.deepEqual(result.failedChecks, ["solhint"], result.output);
    assert.match(stripVTControlCharacters(result.output), /avoid-tx-origin/);
  });

  test("fails on a planted type error and names it", async () => {
    const result = await gateWith("src/typeError.ts", `export const total: number = "not a number";\n`);
    assert.deepEqual(result.failedChecks, ["typecheck"], result.output);
    assert.match(stripVTControlCharacters(result.output), /typeError\.ts\(1,14\): error TS2322/);
  });
});
