import { after, before, describe, it, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase, type TestDatabase } from "#db/testing";
import { loadConfig } from "./config/env";
import { createLogger } from "./logger";
import { startServer, type RunningServer } from "./server";
import { newRegistration } from "./testing/harness";

test("logs never carry bearer tokens, cookies or passwords", () => {
  const lines: string[] = [];
  const logger = createLogger("info", { write: (line: string) => void lines.push(line) });
  logger.info({ req: { headers: { authorization: "Bearer secret.jwt.token", cookie: "sid=1", host: "x" } }, body: { password: "hunter22" } }, "request");
  const text = lines.join("");
  assert.ok(!text.includes("secret.jwt.token"));
  assert.ok(!text.includes("sid=1"));
  assert.ok(!text.includes("hunter22"));
  assert.match(text, /"host":"x"/);
});

describe("a request's id", () => {
  const lines: Array<Record<string, any>> = [];
  let server: RunningServer;
  let database: TestDatabase;
  let dataDir: string;
  let base: string;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "lm-logger-"));
    database = await createTestDatabase();
    const logger = createLogger("info", { write: (line: string) => void lines.push(JSON.parse(line)) });
    // A model that never answers (nothing listens on port 9): the chat service logs a warning for each message.
    const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: randomUUID() + randomUUID(), RPC_URL: "http://127.0.0.1:9", LLM_BASE_URL: "http://127.0.0.1:9/v1" });
    server = await startServer({ port: 0, config, database, logger, staticDir: join(dataDir, "no-app") });
    base = `http://127.0.0.1:${server.port}`;
  });
  after(async () => {
    await server?.close();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(`${base}/api${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
    return { response, body: await response.json() };
  }
  const linesOf = (reqId: string) => lines.filter((line) => line.reqId === reqId);

  it("is kept from a sane X-Request-Id, echoed, and carried by the service's own log lines, even for requests at the same time", async () => {
    const { body: registered } = await post("/auth/register", newRegistration());
    const token = registered.data.token as string;
    const ids = ["trace-1.a", "trace-2.b", "trace-3.c"];
    const answers = await Promise.all(ids.map((id) => post("/chatbot/message", { message: "How long does KYC take?" }, { authorization: `Bearer ${token}`, "x-request-id": id })));
    for (const [i, { response, body }] of answers.entries()) {
      assert.equal(response.status, 200);
      assert.equal(body.data.source, "knowledge", "the local assistant answered");
      assert.equal(response.headers.get("x-request-id"), ids[i]);
    }
    await waitFor(() => ids.every((id) => linesOf(id).some((line) => line.msg === "request completed")));
    for (const id of ids) {
      const own = linesOf(id);
      assert.equal(own.filter((line) => /chat model failed/.test(line.msg)).length, 1, `the service's warning of ${id} carries its id and no other`);
      const completed = own.find((line) => line.msg === "request completed")!;
      assert.equal(completed.req.id, id);
      assert.equal(completed.res.statusCode, 200);
    }
    const warnings = lines.filter((line) => /chat model failed/.test(line.msg));
    assert.deepEqual(warnings.map((line) => line.reqId).sort(), [...ids].sort(), "no warning without an id, none with another request's");
  });

  it("is a new UUID when none, or an unsafe one, comes in", async () => {
    for (const incoming of [undefined, "x".repeat(129), "a b", "<script>"]) {
      const { response } = await post("/auth/login", { email: "nobody@example.com", password: "wrong-password" }, incoming === undefined ? {} : { "x-request-id": incoming });
      assert.equal(response.status, 401);
      const id = response.headers.get("x-request-id")!;
      assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      await waitFor(() => linesOf(id).some((line) => line.msg === "request completed"));
    }
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(condition(), "the log lines were written");
}

describe("with LOG_FILE, as npm start runs", () => {
  /** A process that logs one request line and one warning through createConfiguredLogger, as the API would. */
  function logInChild(logLevel: string, logFile: string): string {
    const script = `
      import { createConfiguredLogger } from "./api/src/logger.ts";
      const logger = createConfiguredLogger({ logLevel: ${JSON.stringify(logLevel)}, logFile: ${JSON.stringify(logFile)} });
      logger.info({ req: { method: "GET", url: "/api/loans" } }, "request completed");
      logger.warn("the chain is slow");
      logger.flush(() => setTimeout(() => process.exit(0), 50));`;
    return execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8" });
  }

  it("keeps request lines out of the terminal and writes them, with the warnings, to the file", () => {
    const dir = mkdtempSync(join(tmpdir(), "lm-logfile-"));
    try {
      const file = join(dir, "logs", "api.log");
      const stdout = logInChild("warn", file);
      assert.doesNotMatch(stdout, /request completed/);
      assert.match(stdout, /the chain is slow/);
      const written = readFileSync(file, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line).msg);
      assert.deepEqual(written, ["request completed", "the chain is slow"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("lets a process that exits at once (a start refused for its configuration) end with its own code, no logger crash", () => {
    const dir = mkdtempSync(join(tmpdir(), "lm-logfile-"));
    try {
      const file = join(dir, "logs", "api.log");
      const script = `
        import { createConfiguredLogger } from "./api/src/logger.ts";
        createConfiguredLogger({ logLevel: "warn", logFile: ${JSON.stringify(file)} }).warn("refused");
        process.exit(3);`;
      const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8" });
      assert.equal(child.status, 3, child.stderr);
      assert.doesNotMatch(child.stderr, /sonic boom|Error/);
      assert.equal(JSON.parse(readFileSync(file, "utf8").trim()).msg, "refused");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("prints request lines to the terminal too with LOG_LEVEL=info", () => {
    const dir = mkdtempSync(join(tmpdir(), "lm-logfile-"));
    try {
      const stdout = logInChild("info", join(dir, "api.log"));
      assert.match(stdout, /request completed/);
      assert.match(stdout, /the chain is slow/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
