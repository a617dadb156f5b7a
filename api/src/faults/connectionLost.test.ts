import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import type { Pool } from "pg";
import { connectDatabase, type DatabaseHandle } from "#db/connect";
import { isConnectionLost } from "#db/connectionLost";
import { startPrivatePostgres, type PrivatePostgres } from "#testing/privatePostgres";
import { atMost, sleep } from "#testing/privateProcess";

/**
 * A pooled connection that the server ends (a restart, a failover, an operator's pg_terminate_backend) while it
 * is checked out: the pool must get it back and the process must not crash. One connection in the pool, so a
 * single leak would leave nothing to serve with.
 */
let pg: PrivatePostgres;
let handle: DatabaseHandle;
let admin: import("pg").Client;

before(async () => {
  pg = await startPrivatePostgres();
  const { default: Pg } = await import("pg");
  admin = new Pg.Client({ connectionString: pg.url });
  await admin.connect();
  await admin.query("create database lost");
  handle = await connectDatabase({ databaseUrl: pg.urlOf("lost"), maxConnections: 1 });
});
after(async () => {
  await atMost(10_000, handle?.close());
  await atMost(10_000, admin?.end());
  await pg?.destroy();
});

const pool = () => (handle.db as unknown as { $client: Pool }).$client;

/** Ends the pool's sessions from another connection, and gives the client time to read the server's goodbye. */
async function terminatePoolSessions() {
  const { rows } = await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = 'lost'");
  assert.ok(rows.length >= 1);
  await sleep(300);
}

test("a connection lost between two statements of a transaction fails that transaction, not the process, and the pool serves on", async () => {
  await assert.rejects(
    handle.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      await terminatePoolSessions();
      await tx.execute(sql`select 1`);
    }),
  );
  const { rows } = (await handle.db.execute(sql`select 42 as answer`)) as unknown as { rows: { answer: number }[] };
  assert.equal(rows[0].answer, 42);
});

test("a checked-out client whose connection was lost before its first statement (a BEGIN) is given back to the pool", async () => {
  const client = await pool().connect();
  await terminatePoolSessions();
  // drizzle's transaction() sends BEGIN outside its try/finally: nothing else would release this client.
  await assert.rejects(client.query("begin"), (error) => isConnectionLost(error));
  assert.equal(pool().totalCount, 0, "the broken client left the pool");
  await handle.db.transaction(async (tx) => {
    await tx.execute(sql`select 1`);
  });
  client.release(); // what drizzle's finally would do when it gets there: a no-op now
  assert.equal(pool().waitingCount, 0);
});
