import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { asc, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import type { PoolClient } from "pg";
import type { Db } from "#db/connect";
import { chainTransfers } from "#db/schema/chain";
import * as schema from "#db/schema";
import { createTestDatabase, type TestDatabase } from "#db/testing";
import { bulkInsertQuery } from "./bulk";
import { inlined, transactionFrom } from "./begin";

let database: TestDatabase;
let client: PoolClient;
let session: Db;

before(async () => {
  database = await createTestDatabase();
  assert.ok(database.url, "this test needs Postgres");
  client = await (database.db as unknown as { $client: { connect(): Promise<PoolClient> } }).$client.connect();
  session = drizzle(client, { schema }) as unknown as Db;
});

after(async () => {
  client?.release();
  await database?.drop();
});

const row = (logIndex: number, from: string) => ({ chainId: 3, txHash: "0xab", logIndex, blockNumber: 1, blockTime: null, tokenId: 1n, from, to: "0x2" });

test("a statement's values are written into it as literals that mean what the values did, quotes, backslashes and dollars included", async () => {
  const texts = ["it's", "back\\slash", 'q"uote', "$1 and $2", "$$", "{a,b}"];
  const statement = bulkInsertQuery(
    chainTransfers,
    texts.map((text, i) => row(i, text)),
    { doNothing: true },
  );
  assert.ok(inlined(statement)!.startsWith("insert into"), "no placeholder is left to bind");
  await transactionFrom(session, statement, async () => {});
  const stored = await database.db
    .select()
    .from(chainTransfers)
    .where(sql`${chainTransfers.chainId} = 3`)
    .orderBy(asc(chainTransfers.logIndex));
  assert.deepEqual(
    stored.map((stored) => stored.from),
    texts,
  );
});

test("a text that would close the quoting early (anyone can put one on-chain) is stored as it is, never parsed as SQL", async () => {
  const texts = ["ends in $lm", "x$l", "y$"];
  for (const [i, text] of texts.entries()) {
    const statement = sql`insert into chain_transfers (chain_id, tx_hash, log_index, block_number, token_id, from_address, to_address) values (5, ${"0xef"}, ${i}, 1, 1, ${text}, ${"0x2"})`;
    await transactionFrom(session, statement, async () => {});
  }
  const stored = await database.db
    .select()
    .from(chainTransfers)
    .where(sql`${chainTransfers.chainId} = 5`)
    .orderBy(asc(chainTransfers.logIndex));
  assert.deepEqual(
    stored.map((stored) => stored.from),
    texts,
  );
});

test("a transaction whose first statement or a later step fails leaves nothing, and its connection goes on working", async () => {
  const failing = sql`insert into chain_transfers (chain_id, tx_hash, log_index, block_number, token_id, from_address, to_address) values (4, ${"0xcd"}, 0, 1, ${"not a number"}, '0x1', '0x2')`;
  await assert.rejects(transactionFrom(session, failing, async () => {}));
  const good = bulkInsertQuery(chainTransfers, [{ ...row(0, "0x1"), chainId: 4 }], { doNothing: true });
  await assert.rejects(
    transactionFrom(session, good, async () => {
      throw new Error("a later step failed");
    }),
    /a later step failed/,
  );
  const result = (await session.execute(sql`select count(*)::int as count from chain_transfers where chain_id = 4`)) as unknown as { rows: { count: number }[] };
  const [{ count }] = result.rows;
  assert.equal(count, 0);
});

test("the next steps get the rows the first statement answered, whether its values were inlined or bound", async () => {
  const seen: unknown[] = [];
  const answer = (text: string) => sql`select ${text}::text as said, json_build_array(1, 'two', true) as parts`;
  await transactionFrom(session, answer("plain"), async (_tx, rows) => void seen.push(rows));
  await transactionFrom(session, answer("ends in $lm"), async (_tx, rows) => void seen.push(rows)); // bound: it cannot be inlined
  assert.deepEqual(seen, [[{ said: "plain", parts: [1, "two", true] }], [{ said: "ends in $lm", parts: [1, "two", true] }]]);
});

test("with nothing to follow it, the statement commits in the same message, and a failing one still leaves nothing", async () => {
  await transactionFrom(session, bulkInsertQuery(chainTransfers, [{ ...row(0, "0x1"), chainId: 6 }], null), null);
  const failing = sql`insert into chain_transfers (chain_id, tx_hash, log_index, block_number, token_id, from_address, to_address) values (6, ${"0xce"}, 1, 1, ${"not a number"}, '0x1', '0x2')`;
  await assert.rejects(transactionFrom(session, failing, null));
  const result = (await session.execute(sql`select count(*)::int as count, bool_and(${sql.raw("now() = statement_timestamp()")}) as fresh from chain_transfers where chain_id = 6`)) as unknown as {
    rows: { count: number; fresh: boolean }[];
  };
  assert.equal(result.rows[0].count, 1, "the first one committed, the failing one left nothing");
  assert.equal(result.rows[0].fresh, true, "and the connection is out of any transaction: now() is this statement's own time");
});
