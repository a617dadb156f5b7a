import { createAdapter } from "@socket.io/redis-adapter";
import { Redis } from "ioredis";
import type { Server } from "socket.io";

/**
 * Shares broadcasts between API processes. `key` is the pub/sub
 * channel prefix: processes that serve one app share it, tests use their own.
 */
export async function attachRedisAdapter(io: Server, url: string, key = "loanmint:socket.io"): Promise<() => Promise<void>> {
  const pub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
  const sub = pub.duplicate();
  // The adapter publishes without awaiting: with Redis down a failed PUBLISH would be an unhandled rejection that
  // ends the process. This process's own sockets still get the broadcast (docs/decisions.md "Redis down").
  const publish = pub.publish.bind(pub) as (...args: unknown[]) => Promise<number>;
  pub.publish = ((...args: unknown[]) => {
    const sent = publish(...args);
    sent.catch(() => {});
    return sent;
  }) as typeof pub.publish;
  for (const client of [pub, sub]) client.on("error", () => {}); // reported by /api/health, not once per reconnect
  await Promise.all([pub.connect(), sub.connect()]);
  io.adapter(createAdapter(pub, sub, { key }));
  // The adapter subscribes in the background; until the subscription is live, other processes' broadcasts are lost
  // (notes/toolchain.md). A ping on the same connection answers only after the SUBSCRIBE commands before it.
  await sub.ping();
  return async () => {
    await Promise.all([pub.quit().catch(() => pub.disconnect()), sub.quit().catch(() => sub.disconnect())]);
  };
}
