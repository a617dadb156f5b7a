import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer, type Server } from "node:http";
import { connect } from "node:net";
import type { AddressInfo } from "node:net";
import { createTestDatabase } from "#db/testing";
import { startTestApi, type TestApi } from "../testing/harness";

/** An RPC node that answers only when the test lets it: the proxied call stays in flight until then. */
function heldNode() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let arrived!: () => void;
  const arrival = new Promise<void>((resolve) => (arrived = resolve));
  const server: Server = createServer((req, res) => {
    req.resume();
    arrived();
    void released.then(() => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify([{ jsonrpc: "2.0", id: 1, result: "0x7a69" }])));
  });
  return { server, arrival, release, listen: () => new Promise<string>((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))) };
}

function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ECONNREFUSED"));
  });
}

const rpcCall = (api: TestApi) =>
  fetch(`${api.url}/api/rpc`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" }) });

const nodes: Server[] = [];
after(() => {
  for (const server of nodes) server.close();
});

test("a stop answers the request in flight, refuses new connections at once, and ends when the answer is sent", async () => {
  const node = heldNode();
  nodes.push(node.server);
  const api = await startTestApi({ rpcUrl: await node.listen() });
  try {
    const answer = rpcCall(api).then(async (response) => ({ status: response.status, connection: response.headers.get("connection"), body: await response.json() }));
    await node.arrival;
    const stopped = api.server.close();
    assert.equal(await connectionRefused(api.server.port), true, "a new connection is refused while the request is in flight");
    node.release();
    const { status, connection, body } = await answer;
    assert.equal(status, 200);
    assert.deepEqual(body, { jsonrpc: "2.0", id: 1, result: "0x7a69" });
    assert.equal(connection, "close", "the client is told not to send more on this connection");
    await stopped;
  } finally {
    await api.close();
  }
});

test("a request that outlives the grace period is cut, so a stop always ends", async () => {
  const node = heldNode();
  nodes.push(node.server);
  const api = await startTestApi({ rpcUrl: await node.listen(), env: { SHUTDOWN_GRACE_MS: "200" } });
  try {
    const answer = rpcCall(api).then(
      (response) => response.status,
      (error: Error) => error,
    );
    await node.arrival;
    await api.server.close();
    assert.ok((await answer) instanceof Error, "the client saw its connection end without an answer");
  } finally {
    node.release();
    await api.close();
  }
});

test("the API run alone answers the request in flight on SIGTERM, then exits 0", async (t) => {
  const node = heldNode();
  nodes.push(node.server);
  const dataDir = mkdtempSync(join(tmpdir(), "lm-drain-"));
  // A migrated test database, not a fresh PGlite: creating and migrating PGlite's files took 25 s of the child's
  // 37 s start at load 12 (and over a minute at load 30), all before the stop this test is about. The stop
  // itself, SIGTERM to exit, took under a second.
  const database = await createTestDatabase();
  const env = { ...process.env, DATA_DIR: dataDir, PORT: "0", RPC_URL: await node.listen(), LOG_LEVEL: "warn", DATABASE_URL: database.url ?? "", REDIS_URL: "" };
  const started = Date.now();
  const child = spawn(process.execPath, ["--import", "tsx", "api/src/server.ts"], { env, stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let stdout = "";
      child.stdout.on("data", (chunk) => {
        stdout += chunk;
        const match = /listening on (http:\/\/\S+)/.exec(stdout);
        if (match) resolve(match[1].replace("localhost", "127.0.0.1"));
      });
      child.once("exit", (code) => reject(new Error(`the API exited with ${code}: ${stderr}`)));
    });
    const listening = Date.now();
    const answer = fetch(`${url}/api/rpc`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" }) });
    await node.arrival;
    const signalled = Date.now();
    child.kill("SIGTERM");
    // Released only once the stop has begun: the process no longer takes connections.
    const port = Number(new URL(url).port);
    for (let i = 0; i < 500 && !(await connectionRefused(port)); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(await connectionRefused(port), true);
    node.release();
    const response = await answer;
    assert.equal(response.status, 200);
    assert.equal((await response.json()).result, "0x7a69");
    assert.equal(await exited, 0, stderr);
    // Where the time went, for a slow run's report: the start, or the stop.
    t.diagnostic(`started in ${listening - started} ms, stopped ${Date.now() - signalled} ms after SIGTERM`);
  } finally {
    child.kill("SIGKILL");
    await exited;
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
