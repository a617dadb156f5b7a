// `npm run test:mutation`: how many planted bugs our tests catch, per part (domain, api, indexer,
// contracts), on the code that moves money, grants a role or shows one user's data to another.
//   -- --quick              a few mutants per part, to check the tooling in minutes
//   -- --focus              only the money and role functions of the largest files (an hour, not a day)
//   -- --only=auth,contracts  only these groups or parts (names in scripts/mutation/targets.ts)
//   -- --concurrency=2      mutants tested at once (default 1: each test file already starts a chain)
//   -- --report             the report of every mutant tested so far, also by a run still going or stopped
// Each group's outcomes are kept in .tmp/mutation/, so a long run can be followed and read while it goes.
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureCompiled } from "#contracts/artifacts";
import { CONTRACT_MUTANTS } from "./contractMutants";
import { runContractMutants } from "./contracts";
import { formatReport, type MutantOutcome } from "./report";
import { FOCUSED_TARGETS, QUICK_TARGETS, TARGETS } from "./targets";
import { mutateGroup } from "./typescript";

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const focus = args.includes("--focus");
const only = args
  .find((a) => a.startsWith("--only="))
  ?.slice("--only=".length)
  .split(",");
const concurrency = Number(args.find((a) => a.startsWith("--concurrency="))?.slice("--concurrency=".length) ?? 1);
const chosen = (name: string, part: string) => !only || only.includes(name) || only.includes(part);

const out = join(".tmp", "mutation", quick ? "quick" : focus ? "focus" : "full");
if (args.includes("--report")) {
  const lines = existsSync(out)
    ? readdirSync(out)
        .filter((f) => f.endsWith(".jsonl"))
        .flatMap((f) => readFileSync(join(out, f), "utf8").split("\n").filter(Boolean))
    : [];
  console.log(formatReport(lines.map((line) => JSON.parse(line) as MutantOutcome)));
  process.exit(0);
}
mkdirSync(out, { recursive: true });
const outcomes: MutantOutcome[] = [];
const progressFile = (name: string) => join(out, `${name.replace(/\W+/g, "-")}.jsonl`);
const keep = (found: MutantOutcome[]) => {
  outcomes.push(...found);
  writeFileSync(join(out, "report.txt"), formatReport(outcomes) + "\n");
};

const groups = (quick ? QUICK_TARGETS : focus ? FOCUSED_TARGETS : TARGETS).filter((g) => chosen(g.name, g.part));
const contractMutants = CONTRACT_MUTANTS.filter((m) => (!quick || m.quick) && (!focus || only) && chosen(m.id, "contracts"));
if (!groups.length && !contractMutants.length) {
  // "No surviving mutants" for a run that tested nothing would read as a perfect score.
  const names = (quick ? QUICK_TARGETS : focus ? FOCUSED_TARGETS : TARGETS).map((g) => g.name);
  console.error(`No group or contract mutant matches ${only?.join(",") ?? "this run"}${quick ? " with --quick" : focus ? " with --focus" : ""}; groups here: ${names.join(", ")}`);
  process.exit(2);
}
// Stryker's copies of the repository take the artifacts along: plain ones, not a coverage run's.
if (groups.length) ensureCompiled();
const broken: string[] = [];
for (const group of groups) {
  console.log(`\n━━ ${group.part} › ${group.name}: ${group.mutate.join(", ")} against ${group.tests.join(", ")}`);
  try {
    rmSync(progressFile(group.name), { force: true });
    keep(await mutateGroup(group, { concurrency, progressFile: progressFile(group.name) }));
  } catch (error) {
    // Most often a test that fails without any mutant: the group says so and the others still run.
    console.error(`${group.name}: ${(error as Error).message}`);
    broken.push(group.name);
  }
}

if (contractMutants.length) {
  console.log(`\n━━ contracts: ${contractMutants.length} hand-made mutants`);
  rmSync(progressFile("contracts"), { force: true });
  const found = runContractMutants(
    contractMutants,
    (line) => console.log(line),
    (outcome) => appendFileSync(progressFile("contracts"), `${JSON.stringify(outcome)}\n`),
  );
  keep(found);
}

console.log(`\n${formatReport(outcomes)}`);
if (broken.length) console.log(`\nNot run (their tests fail without a mutant, see above): ${broken.join(", ")}`);
process.exit(broken.length ? 1 : 0);
