import { createAdapter } from "@socket.io/redis-adapter";
import { Redis } from "ioredis";
import type { Server } from "socket.io";

/**
 * Shares broadcasts between API processes (DESIGN.md "Growing past one machine"). `key` is the pub/sub
 * channel prefix: processes that serve one app share it, tests use their own.
 */
export async function attachRedisAdapter(io: Server, url: string, key = "loanmint:socket.io"): Promise<() => Promise<void>> {
  const pub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
  const sub = pub.duplicate();
  await Promise.all([pub.connect(), sub.connect()]);
  io.adapter(createAdapter(pub, sub, { key }));
  // The adapter subscribes in the background; until the subscription is live, other processes' broadcasts are lost
  // (notes/toolchain.md). A ping on the same connection answers only after the SUBSCRIBE commands before it.
  await sub.ping();
  return async () => {
    await Promise.all([pub.quit().catch(() => pub.disconnect()), sub.quit().catch(() => sub.disconnect())]);
  };
}
