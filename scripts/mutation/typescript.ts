// Mutates one target group of our TypeScript with Stryker and runs the group's test files against each
// mutant through Stryker's command runner (node:test has no Stryker plugin; the command's exit code
// says killed or survived). Stryker works in a copy of the repository, so the work tree is never touched.
import type { LogLevel } from "@stryker-mutator/api/core";
import { Stryker } from "@stryker-mutator/core";
import { resolve } from "node:path";
import type { TargetGroup } from "./targets";
import type { MutantOutcome } from "./report";

// Mutations of texts, object and array literals and regular expressions mostly change messages and
// shapes that the type system or a snapshot would catch; the rest (comparisons, conditions, logic,
// arithmetic, removed blocks and calls) are the bugs that move money or leak data.
const EXCLUDED_MUTATIONS = ["StringLiteral", "ObjectLiteral", "ArrayDeclaration", "Regex"];

/** Outcomes are also appended to `progressFile` as each mutant is tested (scripts/mutation/progressReporter.mjs). */
export async function mutateGroup(group: TargetGroup, options: { concurrency: number; progressFile: string }): Promise<MutantOutcome[]> {
  process.env.LOANMINT_MUTANTS_FILE = resolve(options.progressFile);
  process.env.LOANMINT_MUTATION_GROUP = `${group.part}:${group.name}`;
  const names = group.names ? [`--test-name-pattern='${group.names}'`] : [];
  // Fifteen minutes a file, for a slow chain test on a loaded machine.
  const command = ["node --import tsx --test --test-concurrency=1 --test-timeout=900000 --test-reporter=dot", ...names, ...group.tests].join(" ");
  const stryker = new Stryker({
    testRunner: "command",
    commandRunner: { command },
    // Stryker copies the files all at once, so in its copy the contract artifacts can be older than their sources, and
    // the first chain test rebuilt them (ensureCompiled): 1.5 minutes at load 9, and far longer on a loaded machine,
    // with the test's own process waiting in spawnSync at <1% CPU (the indexer dry run seen "stalled" for 14 minutes).
    // run.ts built them from these very sources just before the copy, so the copy's artifacts are made newer instead.
    buildCommand: "find artifacts -type f -exec touch {} +",
    mutate: group.mutate,
    coverageAnalysis: "off",
    concurrency: options.concurrency,
    // The tests start chains, databases and API processes: slow on a loaded machine, never hung.
    timeoutMS: 120_000,
    timeoutFactor: 2,
    // The first run, without any mutant, measures that time: an API test file can take over five minutes.
    dryRunTimeoutMinutes: 30,
    mutator: { excludedMutations: EXCLUDED_MUTATIONS },
    reporters: ["dots", "loanmint-progress"],
    plugins: ["@stryker-mutator/*", resolve(import.meta.dirname, "progressReporter.mjs")],
    // One directory per run: Stryker empties its own when done, which must not pull another run's copy away.
    tempDirName: `.tmp/stryker-${process.pid}`,
    // Anchored: "coverage" alone would also drop contracts/coverage, which hardhat.config.ts loads.
    ignorePatterns: ["/data", "/test-results", "/playwright-report", "/coverage", "/.tmp"],
    cleanTempDir: true,
    // Stryker's levels are a const enum, which isolated modules cannot read: its values, typed.
    logLevel: "warn" as LogLevel,
    fileLogLevel: "off" as LogLevel,
  });
  const results = await stryker.runMutationTest();
  return results.map((r) => ({
    part: group.part,
    group: group.name,
    file: r.fileName.replace(`${process.cwd()}/`, ""),
    line: r.location.start.line,
    column: r.location.start.column,
    mutator: r.mutatorName,
    replacement: r.replacement ?? "",
    status: r.status,
  }));
}
