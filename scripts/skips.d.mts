// Types of scripts/skips.mjs for the TypeScript that tests it.
export interface Skip {
  name: string;
  reason: string;
}
export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}
export declare const MACHINE_LACKS: string;
export declare function summaryLine(counts: Counts): string;
export declare function nodeTestSkip(data: { file?: string; name: string; skip?: boolean | string; todo?: boolean | string }): Skip | undefined;
export declare function playwrightResults(report: unknown): { passed: number; failed: number; skipped: Skip[]; failures: string[] };
export declare function judgeSkips(skips: Skip[], options: { ci: boolean }): { skipped: Skip[]; failing: Skip[] };
export declare function inCi(env: Record<string, string | undefined>): boolean;
