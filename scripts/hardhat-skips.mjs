// Preloaded (`--import`) into `hardhat test nodejs`: Hardhat's reporter prints a skipped test as "- name"
// with neither its file nor its reason, and a skipped describe not at all in its count. This listens to
// the same node:test event stream Hardhat reads and writes our counter's JSON (scripts/test-counter.mjs)
// to LOANMINT_TEST_COUNTS, so the contract suite's skips are named like every other suite's.
import { writeFileSync } from "node:fs";
import { createRequire, syncBuiltinESMExports } from "node:module";
import { count, newCounts } from "./test-counter.mjs";

const destination = process.env.LOANMINT_TEST_COUNTS;
// Only the Hardhat process itself: the processes its tests spawn run no tests.
delete process.env.LOANMINT_TEST_COUNTS;
if (process.env.NODE_OPTIONS) process.env.NODE_OPTIONS = process.env.NODE_OPTIONS.replace(/--import=\S*hardhat-skips\.mjs/, "").trim();

if (destination) {
  const nodeTest = createRequire(import.meta.url)("node:test");
  const run = nodeTest.run;
  nodeTest.run = (options) => {
    const counts = newCounts();
    const stream = run(options);
    for (const type of ["test:pass", "test:fail"]) stream.on(type, (data) => count(counts, { type, data }));
    process.once("exit", () => writeFileSync(destination, JSON.stringify(counts)));
    return stream;
  };
  syncBuiltinESMExports();
}
