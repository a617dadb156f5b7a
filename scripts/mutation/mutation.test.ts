import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ContractMutant } from "./contractMutants";
import { applyMutant, judge } from "./contracts";
import { scores, survivors, type MutantOutcome } from "./report";

const mutant = (find: string, replace: string): ContractMutant => ({ id: "m", bug: "b", file: "f.sol", find, replace, tests: [] });

describe("a contract mutant", () => {
  it("replaces its text when it occurs exactly once, and refuses when it is missing or ambiguous", () => {
    const source = "if (a < b) revert X();\nc += 1;\n";
    assert.equal(applyMutant(source, mutant("a < b", "a <= b")), "if (a <= b) revert X();\nc += 1;\n");
    assert.equal(applyMutant(source, mutant("a > b", "a >= b")), undefined);
    assert.equal(applyMutant("x; x;", mutant("x;", "")), undefined);
  });

  it("counts as killed only when a test failed, not when the build broke", () => {
    assert.equal(judge(0, "  12 passing", false), "Survived");
    assert.equal(judge(1, "  11 passing\n  1 failing\n", false), "Killed");
    assert.equal(judge(1, "\x1b[31m  2 failing\x1b[39m", false), "Killed");
    assert.equal(judge(1, "Error HHE1000: Compilation failed", false), "CompileError");
    assert.equal(judge(null, "", true), "Timeout");
  });
});

describe("the report", () => {
  const outcome = (part: MutantOutcome["part"], status: string): MutantOutcome => ({ part, group: "g", file: "f.ts", line: 1, column: 1, mutator: "m", replacement: "r", status });

  it("scores each part by killed (or timed out) over judged mutants, and lists the survivors", () => {
    const outcomes = [
      outcome("api", "Killed"),
      outcome("api", "Timeout"),
      outcome("api", "Survived"),
      outcome("api", "NoCoverage"),
      outcome("api", "CompileError"),
      outcome("contracts", "Killed"),
      outcome("contracts", "Stale"),
    ];
    assert.deepEqual(scores(outcomes), [
      { part: "api", detected: 2, undetected: 2, invalid: 1, score: 50 },
      { part: "contracts", detected: 1, undetected: 0, invalid: 1, score: 100 },
    ]);
    assert.deepEqual(
      survivors(outcomes).map((o) => o.status),
      ["Survived", "NoCoverage", "Stale"],
    );
  });
});
