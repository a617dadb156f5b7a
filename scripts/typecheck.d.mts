// Types of scripts/typecheck.mjs for the TypeScript that tests it.
import type { Skip } from "./skips.mjs";

export declare const TSC: string;
export declare function runTypecheck(options: { cwd: string; project?: string; stdio?: "inherit" | "pipe" }): {
  passed: number;
  failed: number;
  skipped: Skip[];
  output: string;
};
