// What `npm test` says about skipped tests, for every runner alike: each skip is named with its reason,
// the closing line always counts them, and under CI=true a skip because the machine lacks something
// (a binary, a service) is a failure: CI must have everything, so such a skip would hide a broken run.

/** The reason a test gives when it skips because this machine lacks something: `machine lacks Redis at …`. */
export const MACHINE_LACKS = "machine lacks ";

/** The closing line of a run; .ci/run greps `N passed, N failed` at its start. */
export function summaryLine({ passed, failed, skipped }) {
  return `${passed} passed, ${failed} failed, ${skipped} skipped`;
}

/**
 * A skipped or todo test (or suite) from a node:test `test:pass`/`test:fail` event, or undefined when it ran.
 * node:test gives `skip`/`todo` as `true` or as the reason's text.
 */
export function nodeTestSkip(data) {
  for (const kind of ["skip", "todo"]) {
    const reason = data[kind];
    if (reason === undefined || reason === false) continue;
    return { name: `${data.file ?? ""} › ${data.name}`, reason: reason === true ? `${kind} without a reason` : `${kind}: ${reason}` };
  }
  return undefined;
}

/** Counts and skips of a Playwright JSON report: each spec × project is one test. */
export function playwrightResults(report) {
  const result = { passed: 0, failed: 0, skipped: [], failures: [] };
  const walk = (suite, path) => {
    const here = suite.title ? [...path, suite.title] : path;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const name = [...here, spec.title].join(" › ") + (test.projectName ? ` [${test.projectName}]` : "");
        if (test.status === "skipped") result.skipped.push({ name, reason: playwrightSkipReason(test) });
        else if (test.status === "expected" || test.status === "flaky") result.passed++;
        else {
          result.failed++;
          result.failures.push(name);
        }
      }
    }
    for (const child of suite.suites ?? []) walk(child, here);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
  return result;
}

function playwrightSkipReason(test) {
  const notes = (test.annotations ?? []).filter((a) => a.type === "skip" || a.type === "fixme");
  if (!notes.length) return "skip without a reason";
  return notes.map((a) => (a.description ? `${a.type}: ${a.description}` : `${a.type} without a reason`)).join("; ");
}

/**
 * Splits a suite's skips into those that stay skips and those that count as failures: under CI a skip
 * whose reason says the machine lacks something fails.
 */
export function judgeSkips(skips, { ci }) {
  const failing = ci ? skips.filter((s) => lacksMachine(s.reason)) : [];
  return { skipped: skips.filter((s) => !failing.includes(s)), failing };
}

/** A todo is unwritten work, never a missing binary or service. */
function lacksMachine(reason) {
  return /^(skip|fixme): /.test(reason) && reason.replace(/^(skip|fixme): /, "").startsWith(MACHINE_LACKS);
}

/** CI=true as CI services set it (any value but empty, "0" or "false"). */
export function inCi(env) {
  return Boolean(env.CI) && env.CI !== "0" && env.CI.toLowerCase() !== "false";
}
