import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { eq } from "drizzle-orm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { users } from "#db/schema";
import { startIndexer, type Indexer } from "#indexer/index";
import { makeUser, startLoanStack, type LoanStack } from "#testing/loanStack";
import { runLivingDemo } from "./demo";

describe("The living demo", () => {
  let stack: LoanStack;
  let indexer: Indexer;

  before(async () => {
    stack = await startLoanStack();
    indexer = startIndexer({ db: stack.api.database.db, rpcUrl: stack.anvil.rpcUrl, deployment: stack.deployment, pollIntervalMs: 100 });
  });

  after(async () => {
    await indexer?.stop();
    await stack?.close();
  });

  it("runs loans through the real flows: a marketplace, an investor's notes with credits, and one loan paid off; a second run leaves them", async () => {
    const actor = async (options: Parameters<typeof makeUser>[1]) => {
      const user = await makeUser(stack.api, options);
      const key = generatePrivateKey();
      await stack.api.database.db
        .update(users)
        .set({ walletAddress: privateKeyToAccount(key).address.toLowerCase() })
        .where(eq(users.id, user.id));
      return { ...user, key, password: "secret123" };
    };
    const [admin, borrower, investor] = [await actor({ admin: true }), await actor({ kyc: "approved" }), await actor({ kyc: "approved" })];
    const options = { baseUrl: stack.api.url, rpcUrl: stack.anvil.rpcUrl, admin, borrower, investor };
    const first = await runLivingDemo(options);
    assert.equal(first.tokenIds.length, 5);
    await indexer.caughtUp();
    // The fourth loan's installment left the treasury's listing at par (a signature) offering it at the new par.

    const browse = await stack.api.call("GET", "/nfts/marketplace/browse", { token: investor.token });
    assert.deepEqual(browse.body.data.nfts.map((n: { tokenId: string }) => n.tokenId).sort(), first.tokenIds.slice(3).sort());
    const portfolio = await stack.api.call("GET", "/nfts/my-portfolio", { token: investor.token });
    assert.deepEqual(portfolio.body.data.nfts.map((n: { tokenId: string }) => n.tokenId).sort(), first.tokenIds.slice(1, 3).sort());
    assert.ok(Number(portfolio.body.data.credits.available) > 0);
    const paidOff = await stack.api.call("GET", `/nfts/${first.tokenIds[0]}`);
    assert.equal(paidOff.body.data.burned, true);
    assert.equal(paidOff.body.data.metadata.loanDetails.status, "completed");

    const second = await runLivingDemo(options);
    assert.equal(second.skipped, true);
  });
});
