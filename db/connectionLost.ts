import type { Pool, PoolClient } from "pg";

const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);
/** Connection exceptions, the server shutting down, crashed or starting up, too many connections. */
const SERVER_UNAVAILABLE = /^(08...|57P0[1-3]|53300)$/;
/** What pg and pg-pool throw, without a code, when a connection breaks or cannot be had in time. */
const CONNECTION_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|is not queryable|Cannot use a pool after calling end/;

/** True for an error of the pg driver meaning the server could not be reached or the connection was lost. */
export function isConnectionLost(error: unknown): boolean {
  if (!error || typeof error !== "object") return false;
  const { code, severity, message } = error as { code?: unknown; severity?: unknown; message?: unknown };
  const text = typeof code === "string" ? code : "";
  if (severity !== undefined && SERVER_UNAVAILABLE.test(text)) return true;
  return NETWORK_CODES.has(text) || CONNECTION_MESSAGES.test(String(message ?? ""));
}

const guarded = Symbol("releasesWhenLost");

/**
 * drizzle's transaction() sends BEGIN before its try/finally, so a BEGIN that fails because the server went away
 * never gives its client back: every outage would leak clients until the pool had none left (requests then wait
 * for a connection that never comes, and pool.end() never returns). So a client checked out with connect() is
 * released, as broken, at its first query that fails for a lost connection, and a later release does nothing.
 * pool.query() checks out with a callback and releases correctly by itself: that path is left alone.
 */
export function releaseLostClients(pool: Pool): void {
  const connect = pool.connect.bind(pool) as (callback?: unknown) => Promise<PoolClient> | void;
  pool.connect = ((callback?: unknown) => {
    if (typeof callback === "function") return connect(callback);
    return (connect() as Promise<PoolClient>).then(guard);
  }) as Pool["connect"];
}

function guard(client: PoolClient): PoolClient {
  // pg-pool gives the client a fresh release() at each checkout: wrap that one.
  const release = client.release;
  let released = false;
  client.release = ((error?: Error | boolean) => {
    if (released) return;
    released = true;
    release(error);
  }) as PoolClient["release"];
  const marked = client as PoolClient & { [guarded]?: true };
  if (marked[guarded]) return client;
  marked[guarded] = true;
  // pg-pool listens for a lost connection only while the client is idle: lost between two statements of a
  // transaction, the "error" event would have no listener and end the process. The next query reports it instead.
  client.on("error", () => {});
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    const result = query(...args);
    if (!result || typeof (result as Promise<unknown>).then !== "function") return result;
    return (result as Promise<unknown>).catch((error: unknown) => {
      if (isConnectionLost(error)) client.release(error as Error);
      throw error;
    });
  }) as PoolClient["query"];
  return client;
}
