import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { createPublicClient, http } from "viem";
import { foundry } from "viem/chains";
import { startAnvil, type Anvil } from "#devchain/anvil";
import { startTestApi, type Answer, type TestApi } from "../testing/harness";

/**
 * GET /nfts/mirror?minBlock= against a real chain and no indexer: the mirror's cursor is written by the test, so
 * a request waits exactly until the test lets it through.
 */
describe("GET /nfts/mirror?minBlock=", () => {
  let anvil: Anvil;
  let api: TestApi;
  let head: number;

  const mirror = (minBlock: number | bigint) => api.call("GET", `/nfts/mirror?minBlock=${minBlock}`);
  const setCursor = (block: number) =>
    api.database.db.execute(sql`
      insert into chain_cursors (chain_id, genesis_hash, deployment_key, block_number, block_hash)
      values (31337, ${"0x" + "00".repeat(32)}, 'test', ${block}, ${"0x" + "11".repeat(32)})
      on conflict (chain_id) do update set block_number = excluded.block_number`);

  before(async () => {
    anvil = await startAnvil();
    const chain = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl) });
    await chain.request({ method: "anvil_mine" as never, params: ["0x5"] as never });
    head = Number(await chain.getBlockNumber());
    api = await startTestApi({ rpcUrl: anvil.rpcUrl, rateLimits: { mirrorWaiters: 2 } });
  });
  after(async () => {
    await api?.close();
    await anvil?.stop();
  });

  test("answers 400 at once for a block beyond the chain's head, with a clear message", async () => {
    for (const future of [head + 1, head + 1_000_000, Number.MAX_SAFE_INTEGER]) {
      const answer = await mirror(future);
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.equal(answer.body.message, `Block ${future} is beyond the chain's head (block ${head}): no transaction can be in it yet`);
    }
  });

  test("lets a bounded number of requests wait; the rest get 503 with Retry-After, and the waiting ones answer once mirrored", async () => {
    const answered: Answer[] = [];
    const all = [0, 1, 2, 3, 4].map(() => mirror(head).then((answer) => (answered.push(answer), answer)));
    // Nothing is mirrored yet: only the requests past the bound can have answered before the cursor moves.
    while (answered.length < 3) await new Promise((resolve) => setTimeout(resolve, 20));
    for (const refused of answered) {
      assert.equal(refused.status, 503, JSON.stringify(refused.body));
      assert.equal(refused.body.message, "Too many requests are waiting for the chain mirror. Please try again in a moment.");
      assert.equal(refused.headers.get("retry-after"), "1");
    }
    await setCursor(head);
    const waited = (await Promise.all(all)).filter((answer) => answer.status !== 503);
    assert.deepEqual(
      waited.map((answer) => [answer.status, answer.body.data]),
      [
        [200, { blockNumber: head, caughtUp: true }],
        [200, { blockNumber: head, caughtUp: true }],
      ],
    );
    assert.deepEqual((await mirror(head)).body.data, { blockNumber: head, caughtUp: true }, "the places are free again");
  });
});
