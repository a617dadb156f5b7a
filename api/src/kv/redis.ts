import { Redis, ReplyError } from "ioredis";
import { createMemoryStore } from "./memory";
import type { KeyValueLogger, KeyValueStore } from "./store";

// INCR and PEXPIRE in one round trip, the expiry set only when the window starts.
const INCREMENT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return { count, redis.call('PTTL', KEYS[1]) }`;

/** Redis on loopback or in the same zone answers in milliseconds; longer means it is in trouble. */
const COMMAND_TIMEOUT_MS = 1000;
/** After a failed command, how long this process stops asking a Redis that still looks connected (a hung server). */
const PAUSE_AFTER_FAILURE_MS = 5000;

/**
 * Redis, and while Redis cannot answer this process's own memory (docs/decisions.md "Redis down"): rate limits
 * count per process, new nonces live in this process, and a nonce issued before the outage cannot be used until
 * Redis is back. The API keeps serving; when Redis answers again everything goes back to it by itself.
 */
export async function createRedisStore(url: string, prefix: string, logger?: KeyValueLogger): Promise<KeyValueStore> {
  const redis = new Redis(url, {
    keyPrefix: prefix,
    lazyConnect: true,
    // Fail at once while disconnected instead of queueing: the caller then uses the memory fallback.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: 3000,
    // Reconnect forever, at most every 2 s, so recovery needs no restart.
    retryStrategy: (times) => Math.min(times * 100, 2000),
  });
  // Outages are reported once below; without a listener ioredis would print every failed reconnect.
  redis.on("error", () => {});
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw new Error(`Redis at REDIS_URL does not answer: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }

  const memory = createMemoryStore(prefix);
  let degraded = false;
  let pausedUntil = 0;
  const fallBack = (error: unknown) => {
    pausedUntil = Date.now() + PAUSE_AFTER_FAILURE_MS;
    if (degraded) return;
    degraded = true;
    logger?.warn({ err: error }, "Redis is unreachable: rate limits and sign-in nonces are kept in this process until it is back");
  };
  redis.on("ready", () => {
    pausedUntil = 0;
    if (!degraded) return;
    degraded = false;
    logger?.info({}, "Redis is back: rate limits and sign-in nonces are shared again");
  });

  /** Redis when it can answer; this process's memory when it cannot. A reply error (a bug) still throws. */
  async function either<T>(viaRedis: () => Promise<T>, viaMemory: () => Promise<T>): Promise<T> {
    if (redis.status !== "ready" || Date.now() < pausedUntil) {
      fallBack(new Error(`the Redis connection is ${redis.status}`));
      return viaMemory();
    }
    try {
      return await viaRedis();
    } catch (error) {
      if (error instanceof ReplyError) throw error;
      fallBack(error);
      return viaMemory();
    }
  }

  return {
    kind: "redis",
    // Values written during an outage live in memory: a read that Redis cannot answer looks there too.
    get: (key) =>
      either(
        async () => (await redis.get(key)) ?? memory.get(key),
        () => memory.get(key),
      ),
    set: (key, value, ttlMs) =>
      either(
        async () => void (await redis.set(key, value, "PX", ttlMs)),
        () => memory.set(key, value, ttlMs),
      ),
    take: (key) =>
      either(
        async () => (await redis.getdel(key)) ?? memory.take(key),
        () => memory.take(key),
      ),
    increment: (key, ttlMs) =>
      either(
        async () => {
          const [count, ttl] = (await redis.eval(INCREMENT, 1, key, ttlMs)) as [number, number];
          return { count, ttlMs: ttl };
        },
        () => memory.increment(key, ttlMs),
      ),
    async delete(key) {
      await memory.delete(key);
      await either(
        async () => void (await redis.del(key)),
        async () => {},
      );
    },
    async health() {
      if (redis.status !== "ready") return "unreachable";
      try {
        await redis.ping();
        return "ok";
      } catch {
        return "unreachable";
      }
    },
    async close() {
      await memory.close();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
