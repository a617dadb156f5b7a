// A node:test reporter that counts finished tests (not suites) and writes them as JSON, so the
// whole run can close with one "N passed, N failed" line across every suite.
export default async function* countReporter(source) {
  const counts = { passed: 0, failed: 0, skipped: 0, failures: [] };
  for await (const event of source) {
    if (event.type !== "test:pass" && event.type !== "test:fail") continue;
    if (event.data.details?.type === "suite") continue;
    if (event.data.skip || event.data.todo) counts.skipped++;
    else if (event.type === "test:pass") counts.passed++;
    else {
      counts.failed++;
      counts.failures.push(`${event.data.file ?? ""} › ${event.data.name}`);
    }
  }
  yield JSON.stringify(counts);
}
