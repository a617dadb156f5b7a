import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { stem } from "./stem";
import { terms } from "./text";
import { Bm25Index, type Chunk } from "./bm25";
import { closestKnown, editDistance } from "./typos";
import { loadKnowledge, parseKnowledge } from "../knowledge";

describe("the Porter stemmer", () => {
  it("reduces the classic examples of the paper to their stems", () => {
    const cases: Record<string, string> = {
      caresses: "caress",
      ponies: "poni",
      cats: "cat",
      agreed: "agre",
      plastered: "plaster",
      motoring: "motor",
      hopping: "hop",
      filing: "file",
      happy: "happi",
      relational: "relat",
      conditional: "condit",
      generalization: "gener",
      hopefulness: "hope",
      adjustment: "adjust",
      controlling: "control",
      rate: "rate",
    };
    for (const [word, expected] of Object.entries(cases)) assert.equal(stem(word), expected, word);
  });

  it("makes the forms of one word meet", () => {
    assert.equal(stem("repayments"), stem("repayment"));
    assert.equal(stem("verified"), stem("verify"));
    assert.equal(stem("approving"), stem("approve"));
  });
});

describe("index terms", () => {
  it("drop stop words and fold synonyms onto one term", () => {
    const set = (text: string) => [...new Set(terms(text))].sort();
    assert.deepEqual(set("How long does the verification take?"), set("KYC duration"));
    assert.deepEqual(set("what is the APR"), set("interest rate"));
  });

  it("join phrases and expand contractions before splitting", () => {
    assert.deepEqual(terms("Can I pay it off early?"), terms("payoff early"));
    assert.ok(terms("I can't pay this month").includes(terms("miss")[0]));
    assert.ok(terms("Is there a driver's license option").includes(terms("license")[0]));
  });

  it("tell the preset 'default rate' from a defaulted loan", () => {
    assert.ok(!terms("what is the default rate").includes(terms("defaulted")[0]));
    assert.ok(terms("what does defaulted mean").includes(terms("defaulted")[0]));
  });

  it("read a sum of money as a question about amounts", () => {
    assert.ok(terms("can I borrow $500?").includes(terms("amount")[0]));
    assert.ok(terms("can I get 2 million dollars").includes(terms("amount")[0]));
  });
});

describe("BM25 retrieval", () => {
  const chunks: Chunk[] = [
    { id: "a", topic: "t", title: "Cats", text: "Cats sleep most of the day and chase mice." },
    { id: "b", topic: "t", title: "Dogs", text: "Dogs fetch sticks. Dogs guard houses. A dog may chase cats." },
    { id: "c", topic: "t", title: "Birds", text: "Birds fly south in winter." },
  ];
  const index = new Bm25Index(chunks);

  it("ranks the chunk about the subject above one that mentions it", () => {
    const hits = index.search("cats");
    assert.deepEqual(
      hits.map((h) => h.chunk.id),
      ["a", "b"],
    );
    assert.ok(hits[0].score > hits[1].score);
    assert.deepEqual(hits[0].fieldMatched, [terms("cats")[0]]);
  });

  it("weighs rare terms above common ones", () => {
    assert.ok(index.idf(terms("winter")[0]) > index.idf(terms("chase")[0]));
    assert.equal(index.search("chase winter")[0].chunk.id, "c");
  });

  it("leaves out chunks sharing no term and reports how much of the question matched", () => {
    const hits = index.search("birds flying to the moon");
    assert.deepEqual(
      hits.map((h) => h.chunk.id),
      ["c"],
    );
    assert.ok(hits[0].coverage > 0 && hits[0].coverage < 1);
    assert.deepEqual(index.search("the of and"), []);
  });
});

describe("the knowledge base", () => {
  it("splits a file into sections with their other phrasings kept out of the answer", () => {
    const [chunk] = parseKnowledge("x", "# X\n\n## Title one?\nAlso asked: alt one; alt two\nThe answer.\n");
    assert.equal(chunk.title, "Title one?");
    assert.equal(chunk.keywords, "alt one; alt two");
    assert.equal(chunk.answer, "The answer.");
  });

  it("covers every topic the assistant promises", () => {
    const topics = new Set(loadKnowledge().map((c) => c.topic));
    for (const topic of ["platform", "accounts", "kyc", "loans", "marketplace", "portfolio", "fees", "support"]) assert.ok(topics.has(topic), topic);
    assert.ok(loadKnowledge().length >= 40);
  });
});

describe("typo correction", () => {
  it("counts edits, a swap of neighbours as one", () => {
    assert.equal(editDistance("review", "reveiw", 2), 1);
    assert.equal(editDistance("intrest", "interest", 2), 1);
    assert.equal(editDistance("kitten", "sitting", 5), 3);
    assert.equal(editDistance("abc", "abcdefgh", 2), 3);
  });

  it("reads a misspelt word as the known word one typo away, and leaves short or unknown words alone", () => {
    assert.equal(closestKnown("documnet", ["document", "doctor"]), "document");
    assert.equal(closestKnown("pari", ["pai"]), undefined);
    assert.equal(closestKnown("weather", ["whether", "leather"]), undefined);
  });

  it("lets a question with typos find its section", () => {
    const index = new Bm25Index(loadKnowledge());
    assert.equal(index.search("kyc reveiw time")[0].chunk.title, "How long does KYC review take?");
    assert.equal(index.search("whats the intrest rate")[0].chunk.title, "What interest rates are available?");
  });
});
