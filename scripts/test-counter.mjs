// A node:test reporter that counts finished tests (not suites) and names every skip, and writes them as
// JSON, so the whole run can close with one "N passed, N failed, N skipped" line across every suite.
// The contract suite's Hardhat reporter hides skip reasons: scripts/hardhat-skips.mjs feeds this same
// counter from inside that run.
import { nodeTestSkip } from "./skips.mjs";

export default async function* countReporter(source) {
  const counts = newCounts();
  for await (const event of source) count(counts, event);
  yield JSON.stringify(counts);
}

export function newCounts() {
  return { passed: 0, failed: 0, skipped: [], failures: [] };
}

/** A skipped suite counts as one skip: its tests never start, so they would vanish from the count. */
export function count(counts, event) {
  if (event.type !== "test:pass" && event.type !== "test:fail") return;
  const skip = nodeTestSkip(event.data);
  if (skip) {
    counts.skipped.push(skip);
    return;
  }
  if (event.data.details?.type === "suite") return;
  if (event.type === "test:pass") counts.passed++;
  else {
    counts.failed++;
    counts.failures.push(`${event.data.file ?? ""} › ${event.data.name}`);
  }
}
