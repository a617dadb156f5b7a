/** The URL when a Redis answers there within half a second, else undefined (callers then run in memory). */
export async function redisAnswering(url: string): Promise<string | undefined> {
  const { Redis } = await import("ioredis");
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 500 });
  try {
    await probe.connect();
    await probe.ping();
    return url;
  } catch {
    return undefined;
  } finally {
    probe.disconnect();
  }
}
