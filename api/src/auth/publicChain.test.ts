import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { DEV_ACCOUNTS } from "#domain/devAccounts";
import { PUBLISHED_DEV_ACCOUNTS } from "#domain/publishedDevKeys";
import { newRegistration, startTestApi, type TestApi } from "../testing/harness";

// Off the local chain the demo emails and the published wallets can never get into the database, so the start's
// refusal of a database holding them (config/seededAccounts.ts) only ever meets a carried-over local one.
describe("accounts on a chain other than 31337", () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi({ env: { CHAIN_ID: "84532" } });
  });
  after(async () => {
    await api.close();
  });

  test("a demo email cannot be registered, in any case", async () => {
    const answer = await api.call("POST", "/auth/register", { body: newRegistration({ email: "Borrower@LOANMINT.local" }) });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.message, "This email address belongs to the local demo. Please use your own.");
    assert.equal((await api.call("POST", "/auth/register", { body: newRegistration() })).status, 201, "any other email can");
  });

  test("a wallet whose key is published gets no sign-in message, a fresh one does", async () => {
    for (const key of [DEV_ACCOUNTS.demoAdmin, PUBLISHED_DEV_ACCOUNTS[19].key]) {
      const answer = await api.call("POST", "/auth/wallet/connect", { body: { walletAddress: privateKeyToAccount(key).address.toLowerCase() } });
      assert.equal(answer.status, 400);
      assert.equal(answer.body.message, "This wallet's private key is published (a local test account), so anyone can spend from it. Please use a wallet of your own.");
    }
    const fresh = await api.call("POST", "/auth/wallet/connect", { body: { walletAddress: privateKeyToAccount(generatePrivateKey()).address } });
    assert.equal(fresh.status, 200, fresh.body.message);
  });
});

describe("accounts on the local chain", () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi();
  });
  after(async () => {
    await api.close();
  });

  test("the dev wallets sign in as before", async () => {
    const answer = await api.call("POST", "/auth/wallet/connect", { body: { walletAddress: privateKeyToAccount(DEV_ACCOUNTS.demoAdmin).address } });
    assert.equal(answer.status, 200, answer.body.message);
  });
});
