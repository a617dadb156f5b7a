import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { connectDatabase } from "./connect";
import { createTestDatabase } from "./testing";
import { users } from "./schema";

test("the migrations apply on Postgres, and emails are unique ignoring case", async () => {
  const database = await createTestDatabase();
  try {
    assert.equal(database.kind, "postgres");
    await database.db.insert(users).values({ email: "Ann@Example.com", firstName: "Ann", lastName: "Lee" });
    await assert.rejects(database.db.insert(users).values({ email: "ann@example.COM", firstName: "Ann", lastName: "Lee" }));
    const result = (await database.db.execute(sql`select nextval('loan_number_seq')::int as next`)) as unknown as { rows: { next: number }[] };
    assert.equal(result.rows[0].next, 1);
  } finally {
    await database.drop();
  }
});

test("PGlite keeps its data in DATA_DIR/pglite across reopenings, migrating only once", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "lm-pglite-"));
  try {
    const first = await connectDatabase({ dataDir: join(dataDir, "nested") });
    assert.equal(first.kind, "pglite");
    await first.db.insert(users).values({ email: "keep@example.com", firstName: "Kee", lastName: "Per" });
    await first.close();
    const second = await connectDatabase({ dataDir: join(dataDir, "nested") });
    const rows = await second.db.select().from(users);
    assert.equal(rows.length, 1);
    await assert.rejects(second.db.insert(users).values({ email: "KEEP@example.com", firstName: "A", lastName: "B" }));
    await second.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test("a verified wallet can belong to one account only, stored in lowercase", async () => {
  const database = await createTestDatabase();
  try {
    const wallet = "0x" + "ab".repeat(20);
    await database.db.insert(users).values({ firstName: "A", lastName: "B", walletAddress: wallet });
    await assert.rejects(database.db.insert(users).values({ firstName: "C", lastName: "D", walletAddress: wallet }));
    await assert.rejects(database.db.insert(users).values({ firstName: "E", lastName: "F", walletAddress: "0x" + "AB".repeat(20) }));
    await database.db.insert(users).values([
      { firstName: "G", lastName: "H" },
      { firstName: "I", lastName: "J" },
    ]);
  } finally {
    await database.drop();
  }
});
