// Types of scripts/qualityGate.mjs for the TypeScript that tests it.
import type { Skip } from "./skips.mjs";

export type CheckName = "format" | "solhint" | "eslint" | "typecheck";

export declare const CHECKS: { name: CheckName; what: string; args: () => string[] }[];
export declare function runQualityGate(options: { cwd: string; checks?: CheckName[]; quiet?: boolean }): Promise<{
  passed: number;
  failed: number;
  skipped: Skip[];
  failedChecks: CheckName[];
  output: string;
}>;
