// Figures the load benches print: percentiles over samples and memory in MB.

/** Nearest-rank percentile (p in 0..100) of unsorted samples; NaN when there are none. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export interface Summary {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function summarize(values: number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] : NaN);
  return { count: sorted.length, p50: at(50), p95: at(95), p99: at(99), max: sorted.length ? sorted[sorted.length - 1] : NaN };
}

export const ms = (value: number, digits = 1) => (Number.isFinite(value) ? `${value.toFixed(digits)} ms` : "–");

export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export interface MemorySample {
  rss: number;
  heapUsed: number;
  external: number;
}

export function memorySample(): MemorySample {
  const { rss, heapUsed, external } = process.memoryUsage();
  return { rss, heapUsed, external };
}

/** The load average beside the figures: on a shared machine a slow run usually means a busy one. */
export async function machineLine(): Promise<string> {
  const os = await import("node:os");
  return `load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`;
}

/** Memory after a full collection when the process runs with --expose-gc: what stays, not what is garbage. */
export function settledMemory(): MemorySample {
  (globalThis as { gc?: () => void }).gc?.();
  return memorySample();
}
