// A Stryker reporter that appends each tested mutant to LOANMINT_MUTANTS_FILE as one JSON line, in the
// shape of scripts/mutation/report.ts: a run stopped half-way (the full one takes hours) still reports
// every mutant it tested, through `npm run test:mutation -- --report`.
import { appendFileSync } from "node:fs";
import { relative } from "node:path";
import { declareValuePlugin, PluginKind } from "@stryker-mutator/api/plugin";

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Reporter, "loanmint-progress", {
    onMutantTested(result) {
      const [part, group] = (process.env.LOANMINT_MUTATION_GROUP ?? ":").split(":");
      const outcome = {
        part,
        group,
        file: relative(process.cwd(), result.fileName),
        line: result.location.start.line,
        column: result.location.start.column,
        mutator: result.mutatorName,
        replacement: result.replacement ?? "",
        status: result.status,
      };
      appendFileSync(process.env.LOANMINT_MUTANTS_FILE, `${JSON.stringify(outcome)}\n`);
    },
  }),
];
