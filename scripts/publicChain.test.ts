import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { users } from "#db/schema";
import { createTestDatabase, type TestDatabase } from "#db/testing";
import { DEMO_ACCOUNTS } from "#domain/demoAccounts";
import { DEV_ACCOUNTS } from "#domain/devAccounts";
import { PUBLIC_CHAIN_ID, startPlatform, startPublicLikeChain, type PublicLikeChain, type StartedPlatform } from "#testing/publicChain";

// The README's public-chain section, step by step: `npm run deploy` with the operator's own keys, then `npm start`
// with CHAIN_ID, those keys and ADMIN_INVITE_CODE. The refusals are in publicChainRefusals.test.ts.
describe("npm start on a chain other than 31337, with fresh keys and a fresh database", { timeout: 900_000 }, () => {
  let chain: PublicLikeChain;
  let database: TestDatabase;
  let platform: StartedPlatform;
  let origin: string;

  before(async () => {
    database = await createTestDatabase();
    if (!database.url) return;
    chain = await startPublicLikeChain();
    const env = await chain.operatorEnv(chain.deployedDataDir(), { DATABASE_URL: database.url });
    origin = `http://localhost:${env.PORT}`;
    platform = await startPlatform(env);
  });
  after(async () => {
    await platform?.stop();
    await chain?.stop();
    await database?.drop();
  });

  async function call(method: string, path: string, body?: unknown) {
    const answer = await fetch(`${origin}/api${path}`, {
      method,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: answer.status, body: (await answer.json()) as { message: string; data: Record<string, any> } };
  }

  it("seeds no account, names no demo login and says how the first administrator is made", async (t) => {
    if (!database.url) return t.skip("needs PostgreSQL, to read the users while the platform runs");
    assert.deepEqual(await database.db.select().from(users), [], "no user row at all");
    assert.doesNotMatch(platform.output, /Demo logins|@loanmint\.local|Admin123!/);
    assert.match(platform.output, /Chain 84532 is treated as real money/);
    assert.match(platform.output, /First administrator: register at http:\/\/localhost:\d+\/register as "Administrator" with your ADMIN_INVITE_CODE/);
  });

  it("refuses the demo logins, by password and by the demo admin's published wallet key", async (t) => {
    if (!database.url) return t.skip("needs PostgreSQL");
    for (const demo of DEMO_ACCOUNTS) {
      const login = await call("POST", "/auth/login", { email: demo.email, password: demo.password });
      assert.equal(login.status, 401, `${demo.email}: ${login.body.message}`);
    }
    const siwe = await call("POST", "/auth/wallet/connect", { walletAddress: privateKeyToAccount(DEV_ACCOUNTS.demoAdmin).address });
    assert.equal(siwe.status, 400, siwe.body.message);
    assert.match(siwe.body.message, /private key is published/);
  });

  it("has no faucet and no dev wallet: the config says this is not the local chain", async (t) => {
    if (!database.url) return t.skip("needs PostgreSQL");
    const faucet = await fetch(`${origin}/api/dev/faucet`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ address: privateKeyToAccount(generatePrivateKey()).address }),
    });
    assert.equal(faucet.status, 404);
    const config = await call("GET", "/config");
    assert.equal(config.status, 200);
    assert.equal(config.body.data.chainId, PUBLIC_CHAIN_ID);
    assert.equal(config.body.data.isLocalChain, false, "the app offers the Local dev wallet only when isLocalChain is true");
  });

  it("makes the first administrator only with the invite code, never with a demo email", async (t) => {
    if (!database.url) return t.skip("needs PostgreSQL");
    const person = { firstName: "Grace", lastName: "Hopper", password: "a-long-secret-1", role: "admin" };
    const without = await call("POST", "/auth/register", { ...person, email: "grace@example.com" });
    assert.equal(without.status, 403, without.body.message);
    const wrong = await call("POST", "/auth/register", { ...person, email: "grace@example.com", adminInviteCode: `${chain.inviteCode}-not` });
    assert.equal(wrong.status, 403, wrong.body.message);
    const demoEmail = await call("POST", "/auth/register", { ...person, email: "Admin@LoanMint.local", adminInviteCode: chain.inviteCode });
    assert.equal(demoEmail.status, 400, demoEmail.body.message);
    assert.equal(demoEmail.body.message, "This email address belongs to the local demo. Please use your own.");
    assert.deepEqual(await database.db.select().from(users), [], "no refused registration left a row");

    const invited = await call("POST", "/auth/register", { ...person, email: "grace@example.com", adminInviteCode: chain.inviteCode });
    assert.equal(invited.status, 201, invited.body.message);
    assert.equal(invited.body.data.user.role, "admin");
    const login = await call("POST", "/auth/login", { email: "grace@example.com", password: person.password });
    assert.equal(login.status, 200, login.body.message);
    const admin = await fetch(`${origin}/api/admin/users`, { headers: { authorization: `Bearer ${login.body.data.token}` } });
    assert.equal(admin.status, 200, "the invited administrator reaches the admin API");
    const rows = await database.db.select().from(users);
    assert.deepEqual(
      rows.map((row) => [row.email, row.role]),
      [["grace@example.com", "admin"]],
    );
  });
});
