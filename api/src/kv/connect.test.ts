import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createKeyValueStore } from "./connect";

const redisUrl = process.env.REDIS_URL || "redis://127.0.0.1:6379";

for (const kind of ["memory", "redis"] as const) {
  test(`the ${kind} store expires values, takes a value only once and counts within a window`, async () => {
    const store = await createKeyValueStore({ redisUrl: kind === "redis" ? redisUrl : undefined, prefix: `test:${randomUUID()}:` });
    try {
      assert.equal(store.kind, kind);
      await store.set("a", "1", 60_000);
      assert.equal(await store.get("a"), "1");
      assert.equal(await store.take("a"), "1");
      assert.equal(await store.take("a"), null);
      await store.set("short", "x", 30);
      await new Promise((r) => setTimeout(r, 60));
      assert.equal(await store.get("short"), null);
      assert.equal((await store.increment("n", 60_000)).count, 1);
      const second = await store.increment("n", 60_000);
      assert.equal(second.count, 2);
      assert.ok(second.ttlMs > 0 && second.ttlMs <= 60_000);
      await store.delete("n");
      assert.equal((await store.increment("n", 60_000)).count, 1);
    } finally {
      await store.close();
    }
  });
}
