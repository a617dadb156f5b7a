/** What nonces and rate limits need of a key-value store; kv/connect.ts opens Redis or the in-memory one. */
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
