import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, describe, it } from "node:test";
import { inCi, judgeSkips, playwrightResults, summaryLine } from "./skips.mjs";

const root = resolve(import.meta.dirname, "..");
const dir = mkdtempSync(join(tmpdir(), "lm-skips-"));
after(() => rmSync(dir, { recursive: true, force: true }));

// One of each outcome: the counts and names below are what `npm test` must report for it.
const fixture = join(dir, "fixture.test.mjs");
writeFileSync(
  fixture,
  `import { describe, it } from "node:test";
it("passes", () => {});
it("fails", () => { throw new Error("no"); });
it("skips with a reason", (t) => t.skip("machine lacks Redis at redis://127.0.0.1:6379"));
it("is a todo", { todo: "write it" }, () => {});
it("skips without a reason", { skip: true }, () => {});
describe("a skipped describe", { skip: "coverage run: artifacts are instrumented" }, () => {
  it("never runs", () => {});
  it("never runs either", () => {});
});
`,
);

const expectedSkips = [
  { name: `${fixture} › skips with a reason`, reason: "skip: machine lacks Redis at redis://127.0.0.1:6379" },
  { name: `${fixture} › is a todo`, reason: "todo: write it" },
  { name: `${fixture} › skips without a reason`, reason: "skip without a reason" },
  { name: `${fixture} › a skipped describe`, reason: "skip: coverage run: artifacts are instrumented" },
];

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
// Without this, a node:test process started inside a test reports to this run instead of to its reporter.
const { NODE_TEST_CONTEXT: _context, ...env } = process.env;

describe("the node suite's counter (scripts/test-counter.mjs)", () => {
  it("counts passes and failures, and names every skip, todo and skipped describe with its reason", () => {
    const out = join(dir, "node-counts.json");
    spawnSync(process.execPath, ["--test", "--test-reporter=./scripts/test-counter.mjs", `--test-reporter-destination=${out}`, fixture], { cwd: root, env });
    const counts = JSON.parse(readFileSync(out, "utf8"));
    assert.equal(counts.passed, 1);
    assert.equal(counts.failed, 1);
    assert.deepEqual(counts.failures, [`${fixture} › fails`]);
    assert.deepEqual([...counts.skipped].sort(byName), [...expectedSkips].sort(byName));
  });
});

describe("the contract suite's skips (scripts/hardhat-skips.mjs)", () => {
  it("are recorded from inside a process that runs node:test's run() as Hardhat does", () => {
    const out = join(dir, "contract-counts.json");
    // Hardhat's task: run({ files, isolation: "none" }) piped to its own reporter, which hides reasons.
    const runner = join(dir, "runner.mjs");
    writeFileSync(runner, `import { run } from "node:test"; run({ files: [${JSON.stringify(fixture)}], isolation: "none", concurrency: false }).resume();`);
    const result = spawnSync(process.execPath, ["--import", "./scripts/hardhat-skips.mjs", runner], {
      cwd: root,
      env: { ...env, LOANMINT_TEST_COUNTS: out },
      encoding: "utf8",
    });
    assert.equal(result.status, 0, result.stderr);
    const counts = JSON.parse(readFileSync(out, "utf8"));
    assert.equal(counts.passed, 1);
    assert.equal(counts.failed, 1);
    assert.deepEqual([...counts.skipped].sort(byName), [...expectedSkips].sort(byName));
  });
});

describe("the browser suite's skips", () => {
  it("names each skipped spec with its project and annotation, and counts the rest", () => {
    const test = (status: string, annotations: { type: string; description?: string }[] = []) => ({ projectName: "chromium", status, annotations });
    const report = {
      suites: [
        {
          title: "wallet.spec.ts",
          specs: [
            { title: "connects", tests: [test("expected")] },
            { title: "retries", tests: [test("flaky")] },
            { title: "breaks", tests: [test("unexpected")] },
          ],
          suites: [
            {
              title: "on a phone",
              specs: [
                { title: "scans", tests: [test("skipped", [{ type: "skip", description: "machine lacks a camera" }])] },
                { title: "pays", tests: [test("skipped", [{ type: "fixme" }])] },
              ],
            },
          ],
        },
      ],
    };
    assert.deepEqual(playwrightResults(report), {
      passed: 2,
      failed: 1,
      failures: ["wallet.spec.ts › breaks [chromium]"],
      skipped: [
        { name: "wallet.spec.ts › on a phone › scans [chromium]", reason: "skip: machine lacks a camera" },
        { name: "wallet.spec.ts › on a phone › pays [chromium]", reason: "fixme without a reason" },
      ],
    });
  });
});

describe("the closing line and CI", () => {
  it("always counts skips, also zero, after the 'N passed, N failed' that .ci/run greps", () => {
    assert.equal(summaryLine({ passed: 12, failed: 0, skipped: 0 }), "12 passed, 0 failed, 0 skipped");
    assert.equal(summaryLine({ passed: 3, failed: 2, skipped: 1 }), "3 passed, 2 failed, 1 skipped");
    assert.match(summaryLine({ passed: 3, failed: 2, skipped: 1 }), /^[0-9]+ passed, [0-9]+ failed/);
  });

  it("fails a skip because the machine lacks something under CI, and only then", () => {
    const lacking = { name: "cluster › starts", reason: "skip: machine lacks Redis at redis://127.0.0.1:6379" };
    const chosen = { name: "deployAll", reason: "skip: coverage run: artifacts are instrumented" };
    const todo = { name: "later", reason: "todo: machine lacks nothing, write it" };
    assert.deepEqual(judgeSkips([lacking, chosen, todo], { ci: true }), { skipped: [chosen, todo], failing: [lacking] });
    assert.deepEqual(judgeSkips([lacking, chosen, todo], { ci: false }), { skipped: [lacking, chosen, todo], failing: [] });
  });

  it("reads CI the way CI services set it", () => {
    assert.equal(inCi({ CI: "true" }), true);
    assert.equal(inCi({ CI: "1" }), true);
    assert.equal(inCi({}), false);
    assert.equal(inCi({ CI: "" }), false);
    assert.equal(inCi({ CI: "false" }), false);
    assert.equal(inCi({ CI: "0" }), false);
  });
});
