// Solidity hooks of the branch-probes plugin: in coverage builds only, once EDR's statement
// instrumentation has run (the rest of the chain goes first), probe every branch of the source.
import { readFile } from "node:fs/promises";
import type { HardhatHooks } from "hardhat/types/hooks";
import { addBranchProbes } from "./probes";

export default async (): Promise<Partial<HardhatHooks["solidity"]>> => ({
  preprocessProjectFileBeforeBuilding: async (context, sourceName, fsPath, fileContent, solcVersion, next) => {
    const processed = await next(context, sourceName, fsPath, fileContent, solcVersion);
    // Files EDR left alone (coverage off, skipFiles, test scope) stay unprobed as well.
    if (!context.globalOptions.coverage || !processed.includes("__NomicFoundationCoverage")) return processed;
    // From disk: depending on the chain's order `fileContent` may already be EDR's output.
    const original = await readFile(fsPath, "utf8");
    return addBranchProbes(sourceName, original, processed);
  },
});
