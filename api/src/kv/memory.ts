import type { KeyValueStore } from "./store";

interface Entry {
  value: string;
  expiresAt: number;
}

export function createMemoryStore(prefix = "", now: () => number = Date.now): KeyValueStore {
  const entries = new Map<string, Entry>();
  const live = (key: string): Entry | undefined => {
    const entry = entries.get(prefix + key);
    if (entry && entry.expiresAt <= now()) {
      entries.delete(prefix + key);
      return undefined;
    }
    return entry;
  };
  // Expired entries nobody reads again are swept now and then, so the map cannot grow without bound.
  const sweeper = setInterval(() => {
    const t = now();
    for (const [key, entry] of entries) if (entry.expiresAt <= t) entries.delete(key);
  }, 60_000);
  sweeper.unref();
  return {
    kind: "memory",
    async get(key) {
      return live(key)?.value ?? null;
    },
    async set(key, value, ttlMs) {
      entries.set(prefix + key, { value, expiresAt: now() + ttlMs });
    },
    async take(key) {
      const entry = live(key);
      entries.delete(prefix + key);
      return entry?.value ?? null;
    },
    async increment(key, ttlMs) {
      const entry = live(key);
      if (!entry) {
        entries.set(prefix + key, { value: "1", expiresAt: now() + ttlMs });
        return { count: 1, ttlMs };
      }
      entry.value = String(Number(entry.value) + 1);
      return { count: Number(entry.value), ttlMs: entry.expiresAt - now() };
    },
    async delete(key) {
      entries.delete(prefix + key);
    },
    async close() {
      clearInterval(sweeper);
      entries.clear();
    },
    async health() {
      return "not configured";
    },
  };
}
