// Branch coverage of the contracts, printed after `hardhat test nodejs --coverage`.
//
// How an outcome counts as taken — the exact rule:
//   Hardhat 3.17's EDR instruments statements only, so the coverage build also runs our plugin
//   (plugin.ts → probes.ts), which rewrites every branch point of each source:
//     - the condition C of `if`, `while`, `do … while`, `for`, of a ternary `C ? a : b`, the first
//       argument of `require`/`assert`, and the left operand of every `&&` / `||`, becomes
//       `probe(C, id)`, which evaluates C once, calls EDR's sendHit(C ? id + 1 : id) and returns C —
//       same value, same evaluation order, so behaviour is unchanged;
//     - each block of a `try` (the success block and every `catch`) starts with sendHit(id + k).
//   EDR hands each transaction's distinct hits to Hardhat, which saves, per hit id, the number of
//   transactions that produced it (coverage/data/<run>/*.json, summed over files here).
//   An outcome is TAKEN ⇔ its id has a count > 0. Nothing is inferred from neighbouring statements.
//   A `&&`/`||` contributes two outcomes for its left operand: short-circuit, or right side evaluated;
//   the value of the whole condition is the enclosing if/ternary/require's own pair.
//   Ids are derived from the source name, the exact file content and the site's index (sites.ts), so
//   data from a run over different sources never matches: a source changed since the run shows as
//   "no data", not as wrong coverage.
//
// Limits: conditions in state-variable initialisers are not probed (a constant cannot call the probe).
// Counts are transactions (and eth_calls), not evaluations: a loop condition that is true and then
// false in one transaction counts once for each outcome. A test that deploys bytecode rebuilt without
// coverage in the middle of the run (another build in the same checkout) reports no hits at all.
//
// Usage: tsx contracts/coverage/branches.ts [--min=95] [--data=coverage/data] [files…]
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { findSites, fileKey, isProbeTag, outcomeOffset, probeId, tagOf, type BranchSite } from "./sites";

export const DEFAULT_FILES = ["contracts/*.sol", "contracts/libraries/*.sol"];

export interface Outcome {
  file: string;
  line: number;
  site: BranchSite;
  label: string;
  count: number;
}

export interface FileBranches {
  file: string;
  outcomes: Outcome[];
}

/** Per hit id, the number of transactions that hit it, summed over every saved data file. */
export function readHits(dataDir: string): Map<string, number> {
  const hits = new Map<string, number>();
  if (!existsSync(dataDir)) return hits;
  for (const run of readdirSync(dataDir, { withFileTypes: true })) {
    if (!run.isDirectory()) continue;
    for (const name of readdirSync(join(dataDir, run.name))) {
      if (!name.endsWith(".json")) continue;
      const counts = JSON.parse(readFileSync(join(dataDir, run.name, name), "utf8")) as Record<string, number>;
      for (const [tag, count] of Object.entries(counts)) hits.set(tag, (hits.get(tag) ?? 0) + count);
    }
  }
  return hits;
}

/** Hardhat names a project file `project/<path from the root>`; probes were keyed by that name. */
export function branchesOf(file: string, content: string, hits: Map<string, number>, sourceName = `project/${file}`): FileBranches {
  const key = fileKey(sourceName, content);
  const outcomes = findSites(sourceName, content).flatMap((site, index) =>
    site.outcomes.map((label, k) => ({
      file,
      line: site.line,
      site,
      label,
      count: hits.get(tagOf(probeId(key, index) + BigInt(outcomeOffset(site, k)))) ?? 0,
    })),
  );
  return { file, outcomes };
}

function expand(patterns: string[], root: string): string[] {
  return patterns.flatMap((pattern) => {
    const slash = pattern.lastIndexOf("/");
    const dir = slash < 0 ? "." : pattern.slice(0, slash);
    const name = pattern.slice(slash + 1);
    if (!name.includes("*")) return [pattern];
    const re = new RegExp(`^${name.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*")}$`);
    return readdirSync(join(root, dir))
      .filter((f) => re.test(f))
      .sort()
      .map((f) => relative(".", join(dir, f)));
  });
}

const percent = (taken: number, total: number) => (total === 0 ? 100 : (taken * 100) / total).toFixed(2);

export function formatReport(files: FileBranches[]): { text: string; taken: number; total: number } {
  const rows = files.map(({ file, outcomes }) => {
    const taken = outcomes.filter((o) => o.count > 0).length;
    return [file, String(outcomes.length), String(taken), percent(taken, outcomes.length)];
  });
  const taken = files.reduce((n, f) => n + f.outcomes.filter((o) => o.count > 0).length, 0);
  const total = files.reduce((n, f) => n + f.outcomes.length, 0);
  const header = ["File", "Branches", "Taken", "Branch %"];
  const all = [header, ...rows, ["Total", String(total), String(taken), percent(taken, total)]];
  const widths = header.map((_, c) => Math.max(...all.map((r) => r[c].length)));
  const line = (r: string[]) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join("  ");
  const rule = widths.map((w) => "─".repeat(w)).join("  ");
  const out = ["Branch Coverage", rule, line(header), rule, ...rows.map(line), rule, line(all.at(-1)!), rule];
  out.push(`Branch coverage: ${percent(taken, total)}% (${taken}/${total})`);
  const untaken = files.flatMap((f) => f.outcomes.filter((o) => o.count === 0));
  if (untaken.length > 0) {
    out.push("Untaken branches:");
    for (const o of untaken) out.push(`  ${o.file}:${o.line}  ${o.site.kind} \`${o.site.text}\` → ${o.label}`);
  }
  return { text: out.join("\n"), taken, total };
}

function main(argv: string[]): number {
  const option = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const min = option("min") === undefined ? undefined : Number(option("min"));
  const dataDir = option("data") ?? "coverage/data";
  const patterns = argv.filter((a) => !a.startsWith("--"));
  const hits = readHits(dataDir);
  if (![...hits.keys()].some(isProbeTag)) {
    console.error(`No branch probe hits in ${dataDir}: run \`hardhat test nodejs --coverage\` first (with the branch-probes plugin in hardhat.config.ts).`);
    return 2;
  }
  const files = expand(patterns.length > 0 ? patterns : DEFAULT_FILES, ".").map((file) => branchesOf(file, readFileSync(file, "utf8"), hits));
  const { text, taken, total } = formatReport(files);
  console.log(text);
  const stale = files.filter((f) => f.outcomes.length > 0 && f.outcomes.every((o) => o.count === 0));
  for (const f of stale) console.log(`No branch data for ${f.file}: changed since the coverage run, or never deployed by a test.`);
  if (min !== undefined && (taken * 100) / Math.max(total, 1) < min) {
    console.error(`Branch coverage is below ${min}%.`);
    return 1;
  }
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) process.exitCode = main(process.argv.slice(2));
