import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { networkInterfaces } from "node:os";
import type { AddressInfo } from "node:net";
import express from "express";
import { chainCursors } from "#db/schema/chain";
import { startAnvil, type Anvil } from "#devchain/anvil";
import { errorHandler } from "../http/errors";
import { newRegistration, startTestApi, type TestApi } from "../testing/harness";
import { createMetrics } from ".";

const TOKEN = "scrape-token-0123456789";

/** The value of one sample, found by its name and exact labels as Prometheus prints them. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function rpc(anvil: Anvil, method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(anvil.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  return ((await response.json()) as { result: unknown }).result;
}

async function scrape(api: TestApi, headers: Record<string, string> = {}): Promise<{ status: number; text: string; type: string | null }> {
  const response = await fetch(`${api.url}/metrics`, { headers });
  return { status: response.status, text: await response.text(), type: response.headers.get("content-type") };
}

describe("/metrics on this machine, without a token", () => {
  let anvil: Anvil;
  let api: TestApi;

  before(async () => {
    anvil = await startAnvil({ silent: true });
    api = await startTestApi({ rpcUrl: anvil.rpcUrl, env: { CONFIRMATIONS: "3" } });
  });
  after(async () => {
    await api?.close();
    await anvil?.stop();
  });

  it("counts and times requests by route template and status, never by raw URL", async () => {
    for (const id of ["123", "456", "789"]) await fetch(`${api.url}/api/nfts/${id}/ownership`);
    await api.call("GET", "/no-such-thing/1");
    await api.call("GET", "/no-such-thing/2");
    await api.call("POST", "/auth/login", { body: { email: "nobody@example.com", password: "wrong-password" } });

    const { status, text, type } = await scrape(api);
    assert.equal(status, 200);
    assert.match(type ?? "", /^text\/plain; version=0\.0\.4/);
    const ownership = text.split("\n").filter((line) => line.startsWith('http_requests_total{method="GET",route="/api/nfts/:id/ownership"'));
    assert.equal(
      ownership.reduce((sum, line) => sum + Number(line.split(" ").at(-1)), 0),
      3,
      "three requests, one template",
    );
    assert.ok(!/\/api\/nfts\/(123|456|789)/.test(text), "no raw URL becomes a label");
    assert.equal(sample(text, 'http_requests_total{method="GET",route="<unmatched>",status="404"}'), 2);
    assert.equal(sample(text, 'http_requests_total{method="POST",route="/api/auth/login",status="401"}'), 1);
    assert.equal(sample(text, 'http_request_duration_seconds_count{method="POST",route="/api/auth/login",status="401"}'), 1);
    assert.ok(sample(text, 'http_request_duration_seconds_bucket{le="+Inf",method="POST",route="/api/auth/login",status="401"}') === 1);
  });

  it("reports the process's CPU, memory and event loop", async () => {
    const { text } = await scrape(api);
    for (const name of ["process_cpu_user_seconds_total", "process_resident_memory_bytes", "nodejs_eventloop_lag_seconds", "nodejs_heap_size_used_bytes"]) {
      assert.ok(sample(text, name)! >= 0, `${name} is reported`);
    }
  });

  it("reports the indexer's lag from the mirror's cursor and the chain's head, less the confirmations", async () => {
    const before = await scrape(api);
    assert.ok(Number.isNaN(sample(before.text, "loanmint_indexer_lag_blocks")), "no mirror yet: unknown, not 0");
    await api.database.db.insert(chainCursors).values({ chainId: 31337, genesisHash: "0x00", deploymentKey: "test", blockNumber: 2, blockHash: "0x00" });
    await rpc(anvil, "anvil_mine", ["0xa"]);
    const head = Number(await rpc(anvil, "eth_blockNumber"));
    // The head is cached for a few seconds between scrapes: wait until this scrape sees the mined blocks.
    let text = "";
    for (let i = 0; i < 100; i++) {
      text = (await scrape(api)).text;
      if (sample(text, "loanmint_chain_head_block") === head) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(sample(text, "loanmint_chain_head_block"), head);
    assert.equal(sample(text, "loanmint_indexer_block"), 2);
    assert.equal(sample(text, "loanmint_indexer_lag_blocks"), head - 3 - 2);
  });

  it("counts the signed-in socket.io connections of this server", async () => {
    const token = (await api.call("POST", "/auth/register", { body: newRegistration() })).body.data.token as string;
    const { io } = await import("socket.io-client");
    const sockets = [0, 1].map(() => io(api.url, { auth: { token }, transports: ["websocket"], reconnection: false, forceNew: true }));
    try {
      await Promise.all(sockets.map((socket) => new Promise((resolve, reject) => socket.once("connect", () => resolve(null)).once("connect_error", reject))));
      assert.equal(sample((await scrape(api)).text, "loanmint_socket_connections"), 2);
    } finally {
      for (const socket of sockets) socket.disconnect();
    }
    let connections: number | undefined;
    for (let i = 0; i < 100 && connections !== 0; i++) {
      connections = sample((await scrape(api)).text, "loanmint_socket_connections");
      if (connections !== 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(connections, 0);
  });

  it("refuses a request that came through a proxy, even over loopback", async () => {
    for (const header of ["x-forwarded-for", "forwarded", "x-real-ip"]) {
      const { status, text } = await scrape(api, { [header]: "203.0.113.9" });
      assert.equal(status, 403);
      assert.match(JSON.parse(text).message, /set METRICS_TOKEN/);
    }
  });
});

describe("/metrics with METRICS_TOKEN", () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi({ env: { METRICS_TOKEN: TOKEN } });
  });
  after(async () => api?.close());

  it("answers only a scraper that sends the token, and an unknown head is NaN", async () => {
    assert.equal((await scrape(api)).status, 401);
    assert.equal((await scrape(api, { authorization: `Bearer ${TOKEN}x` })).status, 401);
    assert.equal((await scrape(api, { authorization: TOKEN })).status, 401);
    const { status, text } = await scrape(api, { authorization: `Bearer ${TOKEN}`, "x-forwarded-for": "203.0.113.9" });
    assert.equal(status, 200);
    assert.ok(Number.isNaN(sample(text, "loanmint_chain_head_block")), "nothing answers at the RPC URL");
  });
});

describe("/metrics without a token, from another machine", () => {
  it("is refused", async (t) => {
    const external = Object.values(networkInterfaces())
      .flat()
      .find((address) => address && address.family === "IPv4" && !address.internal);
    if (!external) return t.skip("machine lacks a network address besides loopback"); // fails under CI=true (scripts/skips.mjs)
    const metrics = createMetrics({ db: null as never, publicClient: null as never, chainId: 31337, confirmations: 0 });
    const app = express()
      .get("/metrics", ...metrics.endpoint)
      .use(errorHandler());
    const server = app.listen(0, "0.0.0.0");
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://${external.address}:${port}/metrics`);
      assert.equal(response.status, 403);
      const local = await fetch(`http://127.0.0.1:${port}/metrics`, { method: "HEAD" });
      assert.equal(local.status, 200, "the same server answers loopback");
    } finally {
      server.close();
    }
  });
});
