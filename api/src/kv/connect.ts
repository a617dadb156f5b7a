import type { KeyValueLogger, KeyValueStore } from "./store";

/**
 * The key-value store behind nonces and rate limits: Redis when REDIS_URL is set (several API processes
 * share it), else an in-memory map with TTLs for the single embedded process. While a configured Redis is
 * down, the Redis store keeps serving from this process's memory (docs/decisions.md "Redis down").
 */
export interface KeyValueOptions {
  redisUrl?: string;
  /** Prepended to every key, so tests and deployments sharing one Redis never collide. */
  prefix?: string;
  logger?: KeyValueLogger;
}

export async function createKeyValueStore(options: KeyValueOptions = {}): Promise<KeyValueStore> {
  const prefix = options.prefix ?? "loanmint:";
  if (options.redisUrl) {
    const { createRedisStore } = await import("./redis");
    return createRedisStore(options.redisUrl, prefix, options.logger);
  }
  const { createMemoryStore } = await import("./memory");
  return createMemoryStore(prefix);
}
