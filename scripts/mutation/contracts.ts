// Applies each hand-made contract mutant to the source, runs the contract test files that should catch
// it, and puts the source back, also when the run is interrupted. Ends with a clean build, so the other
// suites never deploy a mutant's bytecode.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { stripVTControlCharacters } from "node:util";
import type { ContractMutant } from "./contractMutants";
import type { MutantOutcome } from "./report";

/** 20 minutes: a build of the mutant plus its test files, on a loaded two-core machine. */
const TIMEOUT_MS = 20 * 60_000;

export function applyMutant(source: string, mutant: ContractMutant): string | undefined {
  const at = source.indexOf(mutant.find);
  if (at < 0 || source.indexOf(mutant.find, at + 1) >= 0) return undefined;
  return source.slice(0, at) + mutant.replace + source.slice(at + mutant.find.length);
}

export function runContractMutants(mutants: ContractMutant[], log: (line: string) => void, tested: (outcome: MutantOutcome) => void): MutantOutcome[] {
  const outcomes: MutantOutcome[] = [];
  const originals = new Map<string, string>();
  const restore = () => {
    for (const [file, text] of originals) writeFileSync(file, text);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    restore();
    process.kill(process.pid, signal);
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    for (const mutant of mutants) {
      const original = originals.get(mutant.file) ?? readFileSync(mutant.file, "utf8");
      originals.set(mutant.file, original);
      const mutated = applyMutant(original, mutant);
      const outcome = { part: "contracts" as const, group: "contracts", file: mutant.file, line: lineOf(original, mutant.find), column: 1, mutator: mutant.id, replacement: mutant.bug };
      if (mutated === undefined) {
        log(`  ${mutant.id}: stale (its text is not exactly once in ${mutant.file}); update scripts/mutation/contractMutants.ts`);
        outcomes.push({ ...outcome, status: "Stale" });
        tested(outcomes.at(-1)!);
        continue;
      }
      writeFileSync(mutant.file, mutated);
      const started = Date.now();
      const run = spawnSync("hardhat", ["test", "nodejs", ...mutant.tests], { encoding: "utf8", timeout: TIMEOUT_MS, maxBuffer: 64 << 20 });
      writeFileSync(mutant.file, original);
      const output = `${run.stdout}\n${run.stderr}`;
      const status = judge(run.status, output, Boolean(run.error));
      log(`  ${mutant.id}: ${status} in ${Math.round((Date.now() - started) / 1000)} s — ${mutant.bug}`);
      outcomes.push({ ...outcome, status });
      tested(outcomes.at(-1)!);
    }
  } finally {
    restore();
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    spawnSync("hardhat", ["build"], { stdio: "ignore" });
  }
  return outcomes;
}

/** Killed only when a test failed: a mutant that does not compile, or a crash, proves nothing. */
export function judge(exitCode: number | null, output: string, timedOut: boolean): string {
  if (timedOut) return "Timeout";
  if (exitCode === 0) return "Survived";
  return /^\s*[1-9]\d* failing/m.test(stripVTControlCharacters(output)) ? "Killed" : "CompileError";
}

function lineOf(source: string, text: string): number {
  const at = source.indexOf(text);
  return at < 0 ? 0 : source.slice(0, at).split("\n").length;
}
