// The score per part and the surviving mutants, from the outcomes of every group run so far.
import type { Part } from "./targets";

export interface MutantOutcome {
  part: Part;
  group: string;
  file: string;
  line: number;
  column: number;
  /** Stryker's mutator name, or the contract mutant's id. */
  mutator: string;
  /** The replacement code, or the contract mutant's bug. */
  replacement: string;
  /** Stryker's statuses, plus "Stale" for a contract mutant whose text left the source. */
  status: string;
}

const DETECTED = new Set(["Killed", "Timeout"]);
const UNDETECTED = new Set(["Survived", "NoCoverage"]);

export interface PartScore {
  part: Part;
  detected: number;
  undetected: number;
  /** Mutants that could not be judged: compile or runtime errors, stale contract mutants. */
  invalid: number;
  /** Detected ÷ (detected + undetected), in percent; null when nothing was judged. */
  score: number | null;
}

export function scores(outcomes: MutantOutcome[]): PartScore[] {
  const parts = [...new Set(outcomes.map((o) => o.part))];
  return parts.map((part) => {
    const mine = outcomes.filter((o) => o.part === part && o.status !== "Ignored");
    const detected = mine.filter((o) => DETECTED.has(o.status)).length;
    const undetected = mine.filter((o) => UNDETECTED.has(o.status)).length;
    const judged = detected + undetected;
    return { part, detected, undetected, invalid: mine.length - judged, score: judged ? Math.round((1000 * detected) / judged) / 10 : null };
  });
}

export function survivors(outcomes: MutantOutcome[]): MutantOutcome[] {
  return outcomes.filter((o) => UNDETECTED.has(o.status) || o.status === "Stale");
}

export function formatReport(outcomes: MutantOutcome[]): string {
  const lines = ["Mutation score per part:"];
  for (const s of scores(outcomes)) {
    const score = s.score === null ? "—" : `${s.score.toFixed(1)}%`;
    lines.push(`  ${s.part.padEnd(10)} ${score.padStart(6)}  (${s.detected} killed, ${s.undetected} survived${s.invalid ? `, ${s.invalid} not judged` : ""})`);
  }
  const left = survivors(outcomes);
  lines.push("", left.length ? `Surviving mutants (${left.length}):` : "No surviving mutants.");
  for (const o of left) lines.push(`  ${o.file}:${o.line}:${o.column} ${o.mutator}${o.status === "Stale" ? " (stale)" : ""} → ${oneLine(o.replacement)}`);
  return lines.join("\n");
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 120 ? `${flat.slice(0, 117)}…` : flat;
}
