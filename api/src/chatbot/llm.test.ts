import { after, before, beforeEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startTestApi, newRegistration, type TestApi } from "../testing/harness";
import { loadConfig } from "../config/env";

/** A local OpenAI-compatible provider whose behaviour each test chooses. */
type Mode = "answer" | "error" | "garbage" | "empty" | "slow";
let mode: Mode = "answer";
const received: { headers: IncomingMessage["headers"]; body: any; path: string }[] = [];
let stub: Server;
let api: TestApi;

before(async () => {
  stub = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body: JSON.parse(raw || "{}"), path: req.url ?? "" });
      if (mode === "slow") return void setTimeout(() => res.end("{}"), 3000);
      if (mode === "error") return void res.writeHead(500).end('{"error":"boom"}');
      if (mode === "garbage") return void res.writeHead(200, { "content-type": "application/json" }).end("not json");
      const content = mode === "empty" ? "" : "From the stub: KYC review takes 24–48 hours.";
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: "x", model: "stub-model-2026-01-01", choices: [{ index: 0, message: { role: "assistant", content } }] }));
    });
  });
  await new Promise<void>((resolve) => stub.listen(0, "127.0.0.1", resolve));
  // The provider comes from the environment, as in production.
  const LLM_BASE_URL = `http://127.0.0.1:${(stub.address() as AddressInfo).port}/v1/`;
  api = await startTestApi({ env: { LLM_BASE_URL, LLM_API_KEY: "stub-key", LLM_MODEL: "stub-model", LLM_TIMEOUT_MS: "1000" } });
});
after(async () => {
  await api.close();
  stub.closeAllConnections();
  await new Promise<void>((resolve) => stub.close(() => resolve()));
});
beforeEach(() => {
  mode = "answer";
  received.length = 0;
});

async function newUser(): Promise<string> {
  return (await api.call("POST", "/auth/register", { body: newRegistration({ firstName: "Mira" }) })).body.data.token;
}

describe("a configured language model", () => {
  it("is read from LLM_BASE_URL, LLM_API_KEY and LLM_MODEL and is off without a URL", () => {
    const secret = { JWT_SECRET: "x".repeat(32) };
    assert.equal(loadConfig(secret).llm, undefined);
    assert.deepEqual(loadConfig({ ...secret, LLM_BASE_URL: "https://llm.example/v1/", LLM_MODEL: "m" }).llm, { baseUrl: "https://llm.example/v1", apiKey: undefined, model: "m", timeoutMs: 20_000 });
    assert.throws(() => loadConfig({ ...secret, LLM_BASE_URL: "not a url" }), /LLM_BASE_URL must be an http\(s\) URL/);
  });

  it("answers, grounded on the retrieved sections, and the reply names it", async () => {
    const token = await newUser();
    const reply = await api.call("POST", "/chatbot/message", { token, body: { message: "How long does KYC take?" } });
    assert.equal(reply.status, 200);
    assert.equal(reply.body.data.source, "llm");
    assert.equal(reply.body.data.model, "stub-model");
    assert.equal(reply.body.data.message, "From the stub: KYC review takes 24–48 hours.");

    assert.equal(received.length, 1);
    const [call] = received;
    assert.equal(call.path, "/v1/chat/completions");
    assert.equal(call.headers.authorization, "Bearer stub-key");
    assert.equal(call.body.model, "stub-model");
    const system = call.body.messages[0];
    assert.equal(system.role, "system");
    assert.match(system.content, /How long does KYC review take\?/);
    assert.match(system.content, /24–48 hours/);
    assert.match(system.content, /Mira/);
    assert.deepEqual(call.body.messages.at(-1), { role: "user", content: "How long does KYC take?" });

    const history = (await api.call("GET", "/chatbot/history", { token })).body.data.messages;
    assert.deepEqual(
      history.map((m: { source: string | null; model: string | null }) => [m.source, m.model]),
      [
        [null, null],
        ["llm", "stub-model"],
      ],
    );
  });

  it("gets the user's own records and the conversation so far as grounding", async () => {
    const token = await newUser();
    await api.call("POST", "/chatbot/message", { token, body: { message: "What is the vault?" } });
    received.length = 0;
    await api.call("POST", "/chatbot/message", { token, body: { message: "What is the status of my loan?" } });
    const messages = received[0].body.messages;
    assert.match(messages[0].content, /The user's own records:\nYou have no loan requests yet/);
    assert.deepEqual(
      messages.slice(1, 3).map((m: { role: string }) => m.role),
      ["user", "assistant"],
    );
    assert.equal(messages[1].content, "What is the vault?");
  });

  for (const [failure, what] of [
    ["error", "an HTTP error"],
    ["garbage", "a body that is not JSON"],
    ["empty", "an empty answer"],
    ["slow", "no answer within the timeout"],
  ] as const) {
    it(`falls back to the local answer on ${what}, and says so`, async () => {
      mode = failure;
      const token = await newUser();
      const reply = await api.call("POST", "/chatbot/message", { token, body: { message: "How long does KYC take?" } });
      assert.equal(reply.status, 200);
      assert.equal(reply.body.data.source, "knowledge");
      assert.equal(reply.body.data.model, null);
      assert.match(reply.body.data.message, /usually within 24–48 hours/);
      assert.equal(received.length, 1);
    });
  }
});
