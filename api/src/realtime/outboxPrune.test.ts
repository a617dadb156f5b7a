import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "#db/testing";
import { createNotificationsRepository } from "../notifications/repository";
import { startOutboxDelivery } from "./outbox";
import { pruneOutbox } from "./outboxPrune";
import type { Publisher } from "./publisher";

let database: TestDatabase;
before(async () => {
  database = await createTestDatabase();
});
after(async () => {
  await database?.drop();
});

const rowsOf = <T>(result: unknown): T[] => (result as { rows?: T[] }).rows ?? (result as T[]);
const db = () => database.db;

/** One outbox row of `chainId` at `block`, as the indexer writes it (its delivery row comes from the trigger). */
async function outboxRow(chainId: number, block: number): Promise<number> {
  const [row] = rowsOf<{ id: string }>(
    await db().execute(sql`
      insert into chain_outbox (chain_id, block_number, tx_hash, log_index, event, rooms, payload)
      values (${chainId}, ${block}, ${"0x" + "cd".repeat(32)}, 0, 'marketplace:update', '{marketplace}', ${JSON.stringify({ type: "listed", block })}::jsonb)
      returning id`),
  );
  return Number(row.id);
}
const delivered = (id: number, ago: string | null) =>
  db().execute(sql`update outbox_deliveries set delivered_at = ${ago === null ? null : sql`now() - ${ago}::interval`}, emitted = true where outbox_id = ${id}`);
const remaining = async (ids: number[]) => {
  const outbox = rowsOf<{ id: string }>(await db().execute(sql`select id from chain_outbox where id = any(${sql.param(ids)}::bigint[]) order by id`));
  const deliveries = rowsOf<{ id: string }>(await db().execute(sql`select outbox_id as id from outbox_deliveries where outbox_id = any(${sql.param(ids)}::bigint[]) order by outbox_id`));
  return { outbox: outbox.map((r) => Number(r.id)), deliveries: deliveries.map((r) => Number(r.id)) };
};

test("pruning deletes delivered rows past the retention and keeps recent, undelivered and not yet final ones", async () => {
  const chainId = 31337;
  const old = await outboxRow(chainId, 5);
  const recent = await outboxRow(chainId, 5);
  const undelivered = await outboxRow(chainId, 5);
  const unfinal = await outboxRow(chainId, 20);
  await delivered(old, "2 days");
  await delivered(recent, "1 minute");
  await delivered(unfinal, "2 days");
  // The indexer still keeps the hashes of blocks 15 and up: a reorg there would need block 20's rows.
  await db().execute(sql`insert into chain_blocks (chain_id, number, hash) values (${chainId}, 15, '0x15'), (${chainId}, 20, '0x20')`);

  const pruned = await pruneOutbox(db(), new Date(Date.now() - 24 * 60 * 60_000));
  assert.equal(pruned, 1);
  const left = await remaining([old, recent, undelivered, unfinal]);
  assert.deepEqual(left, { outbox: [recent, undelivered, unfinal], deliveries: [recent, undelivered, unfinal] });
  assert.equal(await pruneOutbox(db(), new Date(Date.now() - 24 * 60 * 60_000)), 0, "a second prune finds nothing more");
});

test("a delivering process prunes what it delivered once the retention has passed", async () => {
  const sent: unknown[] = [];
  const publisher: Publisher = { emit: (_rooms, _name, payload) => sent.push(payload) };
  const delivery = startOutboxDelivery({
    db: db(),
    kind: database.kind,
    publisher,
    notifications: createNotificationsRepository(db()),
    pollMs: 20,
    retentionMs: 0,
    pruneIntervalMs: 50,
  });
  try {
    const ids = [await outboxRow(7, 3), await outboxRow(7, 4)];
    const deadline = Date.now() + 10_000;
    let left = await remaining(ids);
    while (left.outbox.length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      left = await remaining(ids);
    }
    assert.deepEqual(left, { outbox: [], deliveries: [] });
    const mine = sent.filter((payload) => (payload as { block: number }).block < 5);
    assert.deepEqual(
      mine,
      [
        { type: "listed", block: 3 },
        { type: "listed", block: 4 },
      ],
      "each row was pushed before it went",
    );
  } finally {
    await delivery.stop();
  }
});
