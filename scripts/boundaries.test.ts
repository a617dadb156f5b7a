import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { projectRoot, projectSpecifiers, readImportGraph, type ImportGraph } from "./boundaries/importGraph";
import { boundaryViolations, crossPartRelative, ENTRY_POINTS, forbiddenImport, importCycles, isTestCode, testCodeInProduct } from "./boundaries/rules";
import { abiCastFindings, generatedAbiNames } from "./boundaries/abiCasts";

// Who may import whom (docs/architecture.md), checked on every import of the repository (docs/decisions.md "Import boundaries").
const root = projectRoot();
const graph = readImportGraph(root);

test("the graph holds every part's sources and their relative imports", () => {
  for (const file of ["domain/schedule.ts", "api/src/server.ts", "indexer/sync.ts", "app/src/main.tsx", "scripts/start.ts"]) {
    assert.ok(graph.has(file), `${file} was not read`);
  }
  assert.ok(
    graph.get("scripts/start.ts")!.some((target) => target.startsWith("api/src/")),
    "scripts/start.ts imports the API",
  );
});

test("no import crosses a line of DESIGN.md's rules", () => {
  assert.deepEqual(boundaryViolations(graph), []);
});

test("imports between parts use the package's subpath imports, never ../../ chains", () => {
  const found: string[] = [];
  for (const [file, targets] of graph) {
    projectSpecifiers(root, file).forEach((specifier, index) => {
      const why = crossPartRelative(file, specifier, targets[index]);
      if (why) found.push(why);
    });
  }
  assert.deepEqual(found, []);
  assert.ok(crossPartRelative("api/src/loans/wire.ts", "../../../domain/money", "domain/money.ts"), "a planted ../../../domain import is refused");
  assert.equal(crossPartRelative("api/src/loans/wire.ts", "#domain/money", "domain/money.ts"), undefined);
  assert.equal(crossPartRelative("api/src/loans/wire.ts", "../chain/gateway", "api/src/chain/gateway.ts"), undefined);
});

test("no feature of the app imports another feature", () => {
  assert.deepEqual(
    boundaryViolations(graph).filter((line) => line.includes("feature")),
    [],
  );
});

test("no import cycles among non-test source files", () => {
  assert.deepEqual(importCycles(graph), []);
});

test("what the product runs never loads test code", () => {
  for (const entry of ENTRY_POINTS) assert.ok(existsSync(join(root, entry)), `entry point ${entry} is missing`);
  assert.deepEqual(testCodeInProduct(graph, ENTRY_POINTS), []);
});

test("the rules refuse each kind of forbidden import", () => {
  const refused: [string, string][] = [
    ["domain/schedule.ts", "db/schema/index.ts"],
    ["domain/money.ts", "api/src/server.ts"],
    ["app/src/main.tsx", "db/schema/index.ts"],
    ["app/src/lib/x.ts", "api/src/loans/wire.ts"],
    ["api/src/health/indexer.ts", "indexer/lock.ts"],
    ["indexer/cli.ts", "api/src/config/env.ts"],
    ["api/src/loans/helper.ts", "devchain/anvil.ts"],
    ["api/src/loans/helper.ts", "contracts/deploy.ts"],
    ["api/src/loans/wire.test.ts", "scripts/seed.ts"],
    ["testing/loanStack.ts", "bench/lib/server.ts"],
    ["bench/api.ts", "scripts/cluster.ts"],
    ["app/src/features/loans/pages/A.tsx", "app/src/features/admin/api/b.ts"],
  ];
  for (const [importer, target] of refused) assert.ok(forbiddenImport(importer, target), `${importer} -> ${target} should be refused`);
  const allowed: [string, string][] = [
    ["api/src/loans/service.ts", "domain/schedule.ts"],
    ["indexer/store.ts", "db/schema/chain.ts"],
    ["api/src/activity/activity.test.ts", "indexer/index.ts"],
    ["testing/loanStack.ts", "indexer/index.ts"],
    ["app/src/features/loans/pages/A.tsx", "app/src/features/loans/api/b.ts"],
    ["scripts/start.ts", "indexer/index.ts"],
  ];
  for (const [importer, target] of allowed) assert.equal(forbiddenImport(importer, target), undefined, `${importer} -> ${target} should be allowed`);
});

test("a planted cycle and a planted test import into the product are found", () => {
  const planted: ImportGraph = new Map([
    ["scripts/start.ts", ["api/src/a.ts"]],
    ["api/src/a.ts", ["api/src/b.ts"]],
    ["api/src/b.ts", ["api/src/a.ts", "testing/world.ts"]],
    ["testing/world.ts", []],
  ]);
  assert.deepEqual(importCycles(planted), [["api/src/a.ts", "api/src/b.ts"]]);
  assert.deepEqual(testCodeInProduct(planted, ["scripts/start.ts"]), ["scripts/start.ts -> api/src/a.ts -> api/src/b.ts -> testing/world.ts"]);
});

// The generated ABIs are `as const`, so viem types every call, argument and answer from them.
const GENERATED_ABIS = "domain/abis.ts";
const abiNames = generatedAbiNames(readFileSync(join(root, GENERATED_ABIS), "utf8"));

test("no code outside the tests casts a generated ABI, forces a chain call with `as never` or casts a typed read", () => {
  assert.ok(abiNames.has("loanNoteAbi") && abiNames.size >= 4, `the ABI names were not read from ${GENERATED_ABIS}`);
  const product = [...graph.keys()].filter((file) => !isTestCode(file) && file !== GENERATED_ABIS);
  assert.deepEqual(
    product.flatMap((file) => abiCastFindings(file, readFileSync(join(root, file), "utf8"), abiNames)),
    [],
  );
});

test("the ABI check finds each kind of cast it forbids, and lets typed code pass", () => {
  const planted = [
    "const a = loanNoteAbi as Abi;",
    "const b = artifact.abi as unknown as Abi;",
    'await client.request({ method: "evm_mine" as never, params: [] });',
    "await publicClient.simulateContract({ address, abi, functionName, args } as never);",
    'const c = (await client.readContract({ address, abi: loanNoteAbi, functionName: "creditsOf", args: [me] })) as bigint;',
    'const d = client.readContract({ address, abi: testDollarAbi, functionName: "nonces", args: [me] }) as Promise<bigint>;',
    'const e = (await read(client.readContract({ address, abi: noteVaultAbi, functionName: "depositorOf", args: [id] }))) as string;',
  ];
  for (const line of planted) assert.equal(abiCastFindings("api/src/x.ts", line, abiNames).length, 1, line);
  const typed = [
    "export const loanNoteAbi = [] as const;",
    'const credits = await client.readContract({ address, abi: loanNoteAbi, functionName: "creditsOf", args: [me] });',
    "const row = (await db.select().from(table as never)) as Row[];",
    'const owner = (await client.readContract({ address, abi: artifact.abi, functionName: "owner" })) as Address;',
  ];
  for (const line of typed) assert.deepEqual(abiCastFindings("api/src/x.ts", line, abiNames), [], line);
});
