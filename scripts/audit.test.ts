import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
// @ts-expect-error: a plain .mjs script without types
import { advisoryRows, EXIT, summarize } from "./audit.mjs";

/** The shape `npm audit --json` (report version 2) answers; the advisories themselves are made up. */
const REPORT = {
  auditReportVersion: 2,
  vulnerabilities: {
    cookie: {
      name: "cookie",
      severity: "low",
      isDirect: false,
      via: [{ source: 1, name: "cookie", dependency: "cookie", title: "cookie accepts out of bounds characters", url: "https://example.com/a/1", severity: "low", range: "<0.7.0" }],
      effects: ["engine.io"],
      range: "<0.7.0",
      nodes: ["node_modules/engine.io/node_modules/cookie"],
      fixAvailable: { name: "socket.io", version: "4.8.1", isSemVerMajor: false },
    },
    "engine.io": { name: "engine.io", severity: "low", isDirect: false, via: ["cookie"], effects: [], range: "*", nodes: ["node_modules/engine.io"], fixAvailable: true },
    "path-to-regexp": {
      name: "path-to-regexp",
      severity: "high",
      isDirect: false,
      via: [{ source: 2, name: "path-to-regexp", title: "path-to-regexp outputs backtracking regular expressions", url: "https://example.com/a/2", severity: "high", range: "<0.1.12" }],
      effects: [],
      range: "<0.1.12",
      nodes: ["node_modules/path-to-regexp"],
      fixAvailable: { name: "express", version: "6.0.0", isSemVerMajor: true },
    },
  },
  metadata: { dependencies: { prod: 120, dev: 300, total: 420 } },
};

describe("npm run audit", () => {
  test("lists one row per advisory, worst first, with the dependency path and the fix", () => {
    const rows = advisoryRows(REPORT);
    assert.deepEqual(
      rows.map((r: any) => [r.package, r.severity, r.path, r.fix]),
      [
        ["path-to-regexp", "high", "path-to-regexp", "express@6.0.0 (major)"],
        ["cookie", "low", "engine.io > cookie", "socket.io@4.8.1"],
        ["engine.io", "low", "engine.io", "yes (npm audit fix)"],
      ],
    );
    assert.equal(rows[2].title, "through cookie");
  });

  test("fails on a high or critical advisory and passes on low and moderate ones", () => {
    const high = summarize(REPORT);
    assert.equal(high.code, EXIT.highOrCritical);
    assert.match(high.text, /3 advisories in the production dependencies \(120 packages\): 1 high, 2 low\./);
    const { ["path-to-regexp"]: _high, ...lowOnly } = REPORT.vulnerabilities;
    assert.equal(summarize({ ...REPORT, vulnerabilities: lowOnly }).code, EXIT.clean);
    assert.equal(summarize({ ...REPORT, vulnerabilities: {} }).text, "No known advisories in the production dependencies (120 packages).");
  });

  test("says plainly when the registry refused the audit, and never calls that clean", () => {
    const refused = { message: "405 Method Not Allowed - POST https://registry.example/-/npm/v1/security/advisories/bulk", statusCode: 405 };
    const answer = summarize(refused);
    assert.equal(answer.code, EXIT.unreachable);
    assert.match(answer.text, /could not get advisories from the registry: 405 Method Not Allowed/);
    assert.match(answer.text, /not a clean result/);
  });

  test("prints the table and exits 1 when run on a saved report", () => {
    const dir = mkdtempSync(join(tmpdir(), "lm-audit-"));
    try {
      writeFileSync(join(dir, "report.json"), JSON.stringify(REPORT));
      const run = spawnSync(process.execPath, ["scripts/audit.mjs", "--from", join(dir, "report.json")], { encoding: "utf8" });
      assert.equal(run.status, 1, run.stderr);
      assert.match(run.stdout, /^Package\s+Severity\s+Title\s+Path\s+Fix available$/m);
      assert.match(run.stdout, /^path-to-regexp\s+high\s+path-to-regexp outputs backtracking/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
