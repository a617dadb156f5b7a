import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { loans } from "#db/schema";
import { CHAT_MAX_LENGTH } from "#domain/schemas/chatbot";
import { startTestApi, newRegistration, type TestApi } from "../testing/harness";

let api: TestApi;
before(async () => {
  api = await startTestApi();
});
after(async () => {
  await api.close();
});

async function newUser(): Promise<{ token: string; id: string }> {
  const answer = await api.call("POST", "/auth/register", { body: newRegistration() });
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return { token: answer.body.data.token, id: answer.body.data.user._id };
}
const ask = (token: string, message: unknown) => api.call("POST", "/chatbot/message", { token, body: { message } });
const history = async (token: string) =>
  (await api.call("GET", "/chatbot/history", { token })).body.data.messages as { id: string; content: string; sender: string; timestamp: string; source: string | null }[];

describe("the chat assistant's routes", () => {
  it("are closed to visitors (401)", async () => {
    assert.equal((await api.call("POST", "/chatbot/message", { body: { message: "hi" } })).status, 401);
    assert.equal((await api.call("GET", "/chatbot/history")).status, 401);
    assert.equal((await api.call("DELETE", "/chatbot/clear")).status, 401);
  });

  it("answer a question from the knowledge base and keep both sides in the history", async () => {
    const { token } = await newUser();
    const reply = await ask(token, "  How long does KYC review take?  ");
    assert.equal(reply.status, 200);
    assert.equal(reply.body.success, true);
    assert.match(reply.body.data.message, /24–48 hours/);
    assert.equal(reply.body.data.source, "knowledge");
    assert.equal(reply.body.data.model, null);
    assert.ok(reply.body.data.sources.includes("How long does KYC review take?"));
    assert.ok(!Number.isNaN(Date.parse(reply.body.data.timestamp)));

    const messages = await history(token);
    assert.deepEqual(
      messages.map((m) => [m.sender, m.source]),
      [
        ["user", null],
        ["bot", "knowledge"],
      ],
    );
    assert.equal(messages[0].content, "How long does KYC review take?");
    assert.equal(messages[1].content, reply.body.data.message);
    assert.equal(messages[1].id, reply.body.data.id);
  });

  it("answer 'what is the status of my loan' from the user's own loans", async () => {
    const { token, id } = await newUser();
    assert.match((await ask(token, "What is the status of my loan?")).body.data.message, /no loan requests yet/);
    await api.database.db
      .insert(loans)
      .values({ userId: id, amount: 4_000_000_000n, purpose: "education", rateBps: 850, termMonths: 24, status: "rejected", rejectionReason: "Purpose not supported" });
    const reply = await ask(token, "What is the status of my loan?");
    assert.match(reply.body.data.message, /was rejected/);
    assert.match(reply.body.data.message, /Purpose not supported/);
    assert.match(reply.body.data.message, /\$4,000\.00/);
    assert.deepEqual(reply.body.data.sources, ["Your account"]);
  });

  it("answer 'why was my KYC rejected' for a user who never submitted with what to upload", async () => {
    const { token } = await newUser();
    const reply = await ask(token, "Why was my KYC rejected?");
    assert.match(reply.body.data.message, /haven't submitted KYC documents/);
  });

  it("never show one user's history to another, nor let one clear another's", async () => {
    const alice = await newUser();
    const bob = await newUser();
    await ask(alice.token, "What is the marketplace fee?");
    await ask(bob.token, "How do I sign up?");
    const bobs = await history(bob.token);
    assert.equal(bobs.length, 2);
    assert.ok(bobs.every((m) => !m.content.includes("marketplace fee")));

    const cleared = await api.call("DELETE", "/chatbot/clear", { token: bob.token });
    assert.equal(cleared.status, 200);
    assert.equal(cleared.body.message, "Chat history cleared");
    assert.equal(cleared.body.data.deleted, 2);
    assert.deepEqual(await history(bob.token), []);
    assert.equal((await history(alice.token)).length, 2);
  });

  const invalid: Array<[string, unknown, string]> = [
    ["an empty message", "", "Message cannot be empty"],
    ["a whitespace-only message", " \n\t ", "Message cannot be empty"],
    ["no message at all", undefined, "Message cannot be empty"],
    ["a message that is not text", 42, "Message must be text"],
    ["a message over the length cap", "x".repeat(CHAT_MAX_LENGTH + 1), "Message cannot exceed 1000 characters"],
  ];
  for (const [what, message, expected] of invalid) {
    it(`refuse ${what} with a 400 '${expected}' and store nothing`, async () => {
      const { token } = await newUser();
      const answer = await api.call("POST", "/chatbot/message", { token, body: message === undefined ? {} : { message } });
      assert.equal(answer.status, 400);
      assert.equal(answer.body.success, false);
      assert.equal(answer.body.message, expected);
      assert.deepEqual(await history(token), []);
    });
  }

  it("accept a message of exactly the length cap", async () => {
    const { token } = await newUser();
    assert.equal((await ask(token, "y".repeat(CHAT_MAX_LENGTH))).status, 200);
  });

  it("limit each user to 20 questions a minute without slowing anyone else", async () => {
    const { token } = await newUser();
    for (let i = 0; i < 20; i++) assert.equal((await ask(token, `What is the vault? (${i})`)).status, 200);
    const refused = await ask(token, "One more?");
    assert.equal(refused.status, 429);
    assert.equal(refused.body.message, "Too many requests. Please try again later.");
    assert.ok(Number(refused.headers.get("retry-after")) > 0);
    assert.equal((await history(token)).length, 40);
    const other = await newUser();
    assert.equal((await ask(other.token, "What is the vault?")).status, 200);
  });
});

describe("answers about records", () => {
  it("never reveal another user's loan named by its number", async () => {
    const owner = await newUser();
    const [loan] = await api.database.db
      .insert(loans)
      .values({ userId: owner.id, amount: 7_000_000_000n, purpose: "medical", rateBps: 900, termMonths: 6, status: "rejected", rejectionReason: "Private reason" })
      .returning();
    const stranger = await newUser();
    const reply = await ask(stranger.token, `Why was loan #${loan.loanNumber} rejected?`);
    assert.equal(reply.status, 200);
    assert.doesNotMatch(reply.body.data.message, /Private reason/);
    assert.match(reply.body.data.message, /no loan requests yet|can't find loan/);
    const own = await ask(owner.token, `Why was loan #${loan.loanNumber} rejected?`);
    assert.match(own.body.data.message, /Private reason/);
  });
});

describe("follow-up questions", () => {
  it("read a short question that points back together with the previous one", async () => {
    const { token } = await newUser();
    await ask(token, "What is KYC?");
    const reply = await ask(token, "How long does it take?");
    assert.match(reply.body.data.message, /24–48 hours/);
  });
});
