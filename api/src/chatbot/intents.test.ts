import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { detectIntent } from "./intents";

const kind = (q: string) => detectIntent(q)?.kind ?? null;

describe("intent detection", () => {
  it("sends questions about the user's own records to the database", () => {
    assert.equal(kind("What is the status of my loan?"), "loan_status");
    assert.equal(kind("has my loan been approved yet"), "loan_status");
    assert.equal(kind("When is my next payment and how much?"), "next_payment");
    assert.equal(kind("how much do I still owe"), "next_payment");
    assert.equal(kind("Why was my KYC rejected?"), "kyc_status");
    assert.equal(kind("am I verified?"), "kyc_status");
    assert.equal(kind("which notes do I hold"), "holdings");
    assert.equal(kind("how much can I withdraw"), "holdings");
  });

  it("takes the many ways of asking about payments, loans and rejections as questions about the user", () => {
    for (const q of ["when do I have to pay", "How much do I need to pay next month?", "how much is due", "next payment", "When's my next payment?"]) assert.equal(kind(q), "next_payment", q);
    for (const q of ["what loans do I have", "any updates on my application?", "why did you reject my loan?"]) assert.equal(kind(q), "loan_status", q);
    assert.equal(kind("why was I rejected?"), "rejection");
    for (const q of ["Am I eligible for a loan?", "why can't I request a loan", "Can I apply now?", "what do I still need to do?"]) assert.equal(kind(q), "eligibility", q);
    assert.equal(kind("what happens when I don't pay?"), null);
  });

  it("reads a loan number named in the question", () => {
    assert.deepEqual(detectIntent("why was loan #42 rejected?"), { kind: "loan_status", loanNumber: 42n });
    assert.deepEqual(detectIntent("when is the next payment on loan 7 due"), { kind: "next_payment", loanNumber: 7n });
  });

  it("leaves instructions and general questions to the knowledge base", () => {
    for (const q of [
      "How do I repay my loan?",
      "Why do I need to verify my identity?",
      "What happens after my loan gets approved?",
      "Do I have to approve the token before buying?",
      "What APR will I pay?",
      "How long does KYC take?",
      "Do I still get repayments if my note is in the vault?",
    ]) {
      assert.equal(kind(q), null, q);
    }
  });

  it("recognises greetings and thanks", () => {
    assert.equal(kind("Hello!"), "greeting");
    assert.equal(kind("thanks a lot"), "thanks");
    assert.equal(kind("hello, how do I apply for a loan?"), null);
  });
});
