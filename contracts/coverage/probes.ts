// Adds branch probes to a source that EDR has already instrumented for statement coverage. EDR only
// inserts `sendHit(...)` statements and braces, so the branch sites of the instrumented text are the
// original's, in the same order; ids are taken from the original, which is what the reporter parses.
import { findSites, fileKey, probeId } from "./sites";

const COVERAGE_LIBRARY = "__NomicFoundationCoverage";

interface Insertion {
  at: number;
  text: string;
  /** Among insertions at one offset: closings (0) before openings (1); outer openings first. */
  order: [number, number];
}

export function addBranchProbes(sourceName: string, original: string, instrumented: string): string {
  const originalSites = findSites(sourceName, original);
  if (originalSites.length === 0) return instrumented;
  if (!instrumented.includes(COVERAGE_LIBRARY)) {
    throw new Error(`${sourceName}: expected EDR's statement instrumentation before the branch probes`);
  }
  const sites = findSites(sourceName, instrumented);
  const mismatch = sites.length !== originalSites.length || sites.some((s, i) => s.text !== originalSites[i].text);
  if (mismatch) throw new Error(`${sourceName}: branch sites differ between the source and its instrumented form`);

  const key = fileKey(sourceName, original);
  const probe = `__lmBranch_${key.toString(16).padStart(8, "0")}`;
  const insertions: Insertion[] = [];
  sites.forEach((site, index) => {
    const id = `0x${probeId(key, index).toString(16)}`;
    if (site.kind === "try") {
      site.clauses.forEach((block, k) => {
        const hit = `${COVERAGE_LIBRARY}.sendHit(${id} + ${k});`;
        insertions.push({ at: block.start + 1, text: hit, order: [1, 0] });
      });
      return;
    }
    const length = site.condition.end - site.condition.start;
    insertions.push({ at: site.condition.start, text: `${probe}((`, order: [1, -length] });
    insertions.push({ at: site.condition.end, text: `), ${id})`, order: [0, length] });
  });
  insertions.sort((a, b) => a.at - b.at || a.order[0] - b.order[0] || a.order[1] - b.order[1]);

  const bytes = Buffer.from(instrumented, "utf8");
  const parts: Buffer[] = [];
  let cursor = 0;
  for (const { at, text } of insertions) {
    parts.push(bytes.subarray(cursor, at), Buffer.from(text, "utf8"));
    cursor = at;
  }
  parts.push(bytes.subarray(cursor));
  // A free function, named per file so files importing each other never see two of them.
  const helper = `\nfunction ${probe}(bool c, uint256 id) pure returns (bool) {\n` + `    ${COVERAGE_LIBRARY}.sendHit(c ? id + 1 : id);\n    return c;\n}\n`;
  return Buffer.concat(parts).toString("utf8") + helper;
}
