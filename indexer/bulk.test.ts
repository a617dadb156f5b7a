import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { asc, eq } from "drizzle-orm";
import { chainTransfers, chainUndo } from "#db/schema/chain";
import { createTestDatabase, type TestDatabase } from "#db/testing";
import { PgDialect } from "drizzle-orm/pg-core";
import { bulkInsert, bulkInsertQuery } from "./bulk";

let database: TestDatabase;
before(async () => (database = await createTestDatabase()));
after(async () => database?.drop());

test("bulk inserts carry any text through the array literals: empty, NULL, spaces, delimiters, quotes, backslashes, non-ASCII", async () => {
  const texts = ["", "NULL", "null", "a b", " lead", "trail ", "x,y", "{z}", 'q"uote', "back\\slash", "tab\tx", "new\nline", "ünï", "0xAbC"];
  const at = new Date("2026-01-02T03:04:05.000Z");
  const rows = texts.map((text, i) => ({ chainId: 1, txHash: text, logIndex: i, blockNumber: 7, blockTime: i % 2 ? at : null, tokenId: 2n ** 200n + BigInt(i), from: text, to: "0x1" }));
  await bulkInsert(database.db, chainTransfers, rows, { doNothing: true });
  await bulkInsert(database.db, chainTransfers, rows, { doNothing: true });
  const stored = await database.db.select().from(chainTransfers).orderBy(asc(chainTransfers.logIndex));
  assert.deepEqual(stored, rows, "written once, every value as it was");
});

test("bulk inserts write objects as JSON and leave serial ids to the table", async () => {
  const key = { chain_id: 1, note: 'x"y\\z', empty: "", none: null };
  await bulkInsert(database.db, chainUndo, [{ chainId: 1, blockNumber: 3, tableName: "chain_notes", rowKey: key, previous: null }], { doNothing: true });
  const [row] = await database.db.select().from(chainUndo);
  assert.deepEqual({ ...row, id: typeof row.id }, { id: "number", chainId: 1, blockNumber: 3, tableName: "chain_notes", rowKey: key, previous: null });
});

test("a column of plain hex texts is sent as it is, and one value among them holding a delimiter or a space is still quoted", async () => {
  const texts = ["0xaa", "0xbb,0xcc", "0xdd", "0x e", "0xff"];
  const rows = texts.map((text, i) => ({ chainId: 2, txHash: `0x${i}`, logIndex: i, blockNumber: 8, blockTime: null, tokenId: BigInt(i), from: text, to: "0x2" }));
  await bulkInsert(database.db, chainTransfers, rows, { doNothing: true });
  const stored = await database.db.select().from(chainTransfers).where(eq(chainTransfers.chainId, 2)).orderBy(asc(chainTransfers.logIndex));
  assert.deepEqual(
    stored.map((row) => row.from),
    texts,
  );
});

test("a column holding one value in every row travels once and still reaches every row: texts, dates, nulls and numbers", async () => {
  const at = new Date("2026-03-04T05:06:07.000Z");
  const rows = [0, 1, 2].map((i) => ({ chainId: 3, txHash: `0x${i}`, logIndex: i, blockNumber: 9, blockTime: new Date(at), tokenId: 2n ** 255n, from: 'sp ace"q', to: "0xdd" }));
  const { params } = new PgDialect().sqlToQuery(bulkInsertQuery(chainTransfers, rows, { doNothing: true }));
  assert.equal(params.filter((param) => typeof param === "string" && param.startsWith("{")).length, 2, "arrays only for the tx hash and log index");
  await bulkInsert(database.db, chainTransfers, rows, { doNothing: true });
  await bulkInsert(database.db, chainTransfers, [{ ...rows[0], chainId: 3, txHash: "0xlone", blockTime: null }], { doNothing: true });
  const stored = await database.db.select().from(chainTransfers).where(eq(chainTransfers.chainId, 3)).orderBy(asc(chainTransfers.txHash));
  assert.deepEqual(
    stored,
    [...rows, { ...rows[0], txHash: "0xlone", blockTime: null }].sort((a, b) => a.txHash.localeCompare(b.txHash)),
  );
});
