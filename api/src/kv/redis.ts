import { Redis } from "ioredis";
import type { KeyValueStore } from "./store";

// INCR and PEXPIRE in one round trip, the expiry set only when the window starts.
const INCREMENT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return { count, redis.call('PTTL', KEYS[1]) }`;

export async function createRedisStore(url: string, prefix: string): Promise<KeyValueStore> {
  const redis = new Redis(url, { keyPrefix: prefix, lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();
  return {
    kind: "redis",
    get: (key) => redis.get(key),
    async set(key, value, ttlMs) {
      await redis.set(key, value, "PX", ttlMs);
    },
    take: (key) => redis.getdel(key),
    async increment(key, ttlMs) {
      const [count, ttl] = (await redis.eval(INCREMENT, 1, key, ttlMs)) as [number, number];
      return { count, ttlMs: ttl };
    },
    async delete(key) {
      await redis.del(key);
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
