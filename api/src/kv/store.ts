/**
 * The key-value store behind nonces and rate limits: Redis when REDIS_URL is set (several API processes
 * share it), else an in-memory map with TTLs for the single embedded process. While a configured Redis is
 * down, the Redis store keeps serving from this process's memory (docs/decisions.md "Redis down").
 */
export interface KeyValueStore {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Reads and deletes in one step, so a single-use value is used once even under concurrency. */
  take(key: string): Promise<string | null>;
  /** Adds one and returns the count; a new key starts its TTL window. */
  increment(key: string, ttlMs: number): Promise<{ count: number; ttlMs: number }>;
  delete(key: string): Promise<void>;
  close(): Promise<void>;
  /** Whether Redis answers a PING now; the memory store has no Redis to ask. */
  health(): Promise<KeyValueHealth>;
  readonly kind: "redis" | "memory";
}

export type KeyValueHealth = "ok" | "unreachable" | "not configured";

/** Where the Redis store says it lost Redis and found it again. */
export interface KeyValueLogger {
  warn(obj: unknown, msg?: string): void;
  info(obj: unknown, msg?: string): void;
}

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
