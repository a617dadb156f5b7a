/** A job the API runs every so often, and on demand, one pass at a time. */
export interface PeriodicJob<T> {
  /** Runs a pass now, after the one in flight if any: a slow chain must not stack passes that act twice. */
  runOnce(): Promise<T>;
  /** Runs a pass every `intervalMs` until stopped; a failed pass is logged, the next one still runs. */
  start(intervalMs?: number): void;
  stop(): void;
}

export function periodicJob<T>(pass: () => Promise<T>, failure: string, logger?: { warn(obj: unknown, msg?: string): void }): PeriodicJob<T> {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<T> | undefined;
  const job: PeriodicJob<T> = {
    async runOnce() {
      while (running) await running.catch(() => {});
      const current = pass();
      running = current;
      try {
        return await current;
      } finally {
        running = undefined;
      }
    },
    start(intervalMs = 60_000) {
      if (timer) return;
      timer = setInterval(() => {
        job.runOnce().catch((error) => logger?.warn({ err: error }, failure));
      }, intervalMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
  return job;
}
