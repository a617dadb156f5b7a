import { test } from "node:test";
import assert from "node:assert/strict";
import { privateKeyToAccount } from "viem/accounts";
import { createTestDatabase } from "#db/testing";
import { users } from "#db/schema";
import { DEV_ACCOUNTS } from "#domain/devAccounts";
import { verifyPassword } from "#api/auth/passwords";
import { seedDemo } from "./seed";

test("seedDemo creates the admin, borrower and investor once, with verified dev wallets #5, #3 and #4", async () => {
  const database = await createTestDatabase();
  try {
    const logins = await seedDemo(database.db);
    const again = await seedDemo(database.db);
    assert.deepEqual(again, logins);
    const rows = await database.db.select().from(users);
    assert.equal(rows.length, 3);
    const byEmail = new Map(rows.map((row) => [row.email, row]));
    const expected = [
      ["admin@loanmint.local", "Admin123!", "admin", DEV_ACCOUNTS.demoAdmin, "none"],
      ["borrower@loanmint.local", "Borrower123!", "user", DEV_ACCOUNTS.demoBorrower, "approved"],
      ["investor@loanmint.local", "Investor123!", "user", DEV_ACCOUNTS.demoInvestor, "approved"],
    ] as const;
    for (const [email, password, role, key, kyc] of expected) {
      const row = byEmail.get(email)!;
      assert.equal(row.role, role);
      assert.equal(row.kycStatus, kyc);
      assert.equal(row.walletAddress, privateKeyToAccount(key).address.toLowerCase());
      assert.ok(await verifyPassword(row.passwordHash, password));
      assert.ok(logins.some((login) => login.email === email && login.password === password));
    }
  } finally {
    await database.drop();
  }
});
