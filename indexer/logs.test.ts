import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createTestDatabase, type TestDatabase } from "#db/testing";
import { startIndexer } from "./sync";
import { startTestChain, type TestChain } from "#testing/chain";
import { compareWithChain } from "./verify";

/**
 * A node in front of the test chain that behaves like a hosted provider: it refuses eth_getLogs over more than
 * MAX_SPAN blocks (with the words providers use), and drops the connection of the first eth_getLogs it sees.
 */
const MAX_SPAN = 3;
let chain: TestChain;
let database: TestDatabase;
let proxy: Server;
let proxyUrl: string;
const seen = { refused: 0, dropped: 0, served: 0 };

before(async () => {
  [chain, database] = await Promise.all([startTestChain(), createTestDatabase()]);
  proxy = createServer(
    (request, response) =>
      void (async () => {
        const chunks: Buffer[] = [];
        for await (const chunk of request) chunks.push(chunk as Buffer);
        const body = Buffer.concat(chunks).toString("utf8");
        const call = JSON.parse(body) as { id: number; method?: string; params?: [{ fromBlock: string; toBlock: string }] };
        if (call.method === "eth_getLogs") {
          if (seen.dropped === 0) {
            seen.dropped++;
            request.socket.destroy();
            return;
          }
          const span = Number(call.params![0].toBlock) - Number(call.params![0].fromBlock) + 1;
          if (span > MAX_SPAN) {
            seen.refused++;
            response.setHeader("content-type", "application/json");
            response.end(JSON.stringify({ jsonrpc: "2.0", id: call.id, error: { code: -32005, message: `query exceeds max block range ${MAX_SPAN}` } }));
            return;
          }
          seen.served++;
        }
        const answer = await fetch(chain.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body });
        response.setHeader("content-type", "application/json");
        response.end(await answer.text());
      })(),
  );
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

after(async () => {
  proxy?.closeAllConnections();
  await new Promise((resolve) => proxy?.close(resolve));
  await database?.drop();
  await chain?.stop();
});

test("a node that drops a log query and refuses wide ones is asked again, then for narrower ranges, and the mirror is whole", async () => {
  for (let id = 1n; id <= 6n; id++) await chain.originate(id);
  await chain.list(2n, 1_000_000n);
  const errors: string[] = [];
  const logger = { info() {}, warn() {}, error: (message: string) => void errors.push(message) };
  const indexer = startIndexer({ db: database.db, rpcUrl: proxyUrl, deployment: chain.deployment, pollIntervalMs: 50, headsUrl: null, range: { initial: 64 }, logger });
  try {
    await indexer.caughtUp();
  } finally {
    await indexer.stop();
  }
  assert.equal(seen.dropped, 1);
  assert.deepEqual(errors, [], "the dropped query was asked again at once, and a refusal is no failure");
  assert.ok(seen.refused > 0, "wide ranges were refused");
  assert.ok(seen.served > 0);
  assert.deepEqual(await compareWithChain(database.db, chain.publicClient, chain.deployment), []);
});
