import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createTestDatabase, type TestDatabase } from "#db/testing";
import type { UserRow } from "#db/schema";
import { createKnowledgeAnswerer } from "../knowledgeAnswer";
import { createChatRepository } from "../repository";
import { createChatbotService, type ChatbotService } from "../service";
import { createChatUserData } from "../userData";
import { CHAIN_ID, NOW, TREASURY, seedAda, wrongFacts, type EvalQuestion } from "./fixture";

const PASS_MARK = 0.9;
const load = (name: string): EvalQuestion[] => JSON.parse(readFileSync(new URL(name, import.meta.url), "utf8")).questions;

describe("the assistant's evaluation", () => {
  let database: TestDatabase;
  let service: ChatbotService;
  let repository: ReturnType<typeof createChatRepository>;
  let ada: UserRow;

  before(async () => {
    database = await createTestDatabase();
    ada = await seedAda(database.db);
    repository = createChatRepository(database.db);
    service = createChatbotService({
      repository,
      userData: createChatUserData(database.db, CHAIN_ID),
      knowledge: createKnowledgeAnswerer(),
      treasury: async () => TREASURY,
      now: () => NOW,
    });
  });
  after(() => database.drop());

  async function score(name: string): Promise<number> {
    const questions = load(name);
    let passed = 0;
    const failures: string[] = [];
    for (const q of questions) {
      // Each question opens its own conversation; one with `after` follows that question and its answer.
      await repository.clear(ada.id);
      if (q.after) await service.ask(ada, q.after);
      const { text } = await service.localAnswer(ada, q.question);
      const wrong = wrongFacts(text, q);
      if (wrong.length === 0) passed += 1;
      else failures.push(`  ✗ ${q.question}\n      wrong: ${wrong.join("; ")}\n      answer: ${text.slice(0, 300).replace(/\n/g, " ")}`);
    }
    const ratio = passed / questions.length;
    console.log(`chat eval ${name}: ${passed}/${questions.length} correct (${(ratio * 100).toFixed(1)}%)${failures.length ? `\n${failures.join("\n")}` : ""}`);
    return ratio;
  }

  it("has at least 40 questions, each with facts", () => {
    const questions = load("questions.json");
    assert.ok(questions.length >= 40, `only ${questions.length} questions`);
    for (const q of questions) assert.ok(q.facts.length > 0, `no facts for "${q.question}"`);
  });

  it("answers at least 90% of the evaluation set with every required fact", async () => {
    const ratio = await score("questions.json");
    assert.ok(ratio >= PASS_MARK, `score ${(ratio * 100).toFixed(1)}% is under ${PASS_MARK * 100}%`);
  });

  it("answers at least 90% of the held-out paraphrases, which no section was written for", async () => {
    const ratio = await score("holdout.json");
    assert.ok(ratio >= PASS_MARK, `score ${(ratio * 100).toFixed(1)}% is under ${PASS_MARK * 100}%`);
  });
});
