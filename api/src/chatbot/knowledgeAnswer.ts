import { Bm25Index, type Hit } from "./retrieval/bm25";
import { loadKnowledge, type KnowledgeChunk } from "./knowledge";

export interface KnowledgeAnswer {
  text: string;
  /** Titles of the sections used. */
  sources: string[];
  /** False when nothing in the knowledge base matched the question well enough. */
  found: boolean;
  hits: Hit[];
}

/**
 * The best section answers only when it shares a real part of the question and the question names what the
 * section is about (a term of its title or keywords); "what is bitcoin's price" shares only a stray word.
 */
const MIN_COVERAGE = 0.2;
const isAnswer = (hit: Hit | undefined): hit is Hit => Boolean(hit && hit.coverage >= MIN_COVERAGE && hit.fieldMatched.length > 0);
/** A second section joins the answer when it is nearly as relevant and covers a part of the question the first does not. */
const SECOND_RATIO = 0.6;

export const NOT_FOUND_TEXT =
  "I'm not sure about that one. I can help with loans (amounts, rates, terms, repayment, early payoff), KYC, wallets and signing in, the marketplace, the vault, fees, and your own loans, payments and KYC status. Could you rephrase, or contact support through the contact form (replies within 24 hours)?";

export function createKnowledgeAnswerer(chunks: KnowledgeChunk[] = loadKnowledge()) {
  const index = new Bm25Index(chunks);

  /** The chunks most relevant to a question, for the answer or as an LLM's grounding. */
  function retrieve(question: string, limit = 4): Hit[] {
    return index.search(question, limit);
  }

  function answer(question: string): KnowledgeAnswer {
    const hits = retrieve(question);
    const best = hits[0];
    if (!isAnswer(best)) return { text: NOT_FOUND_TEXT, sources: [], found: false, hits };
    const used = [best];
    const second = hits[1];
    if (second && second.score >= best.score * SECOND_RATIO && second.matched.some((term) => !best.matched.includes(term))) used.push(second);
    const parts = used.map((hit) => (hit.chunk as KnowledgeChunk).answer);
    return { text: parts.join("\n\n"), sources: used.map((hit) => hit.chunk.title), found: true, hits };
  }

  return { retrieve, answer, size: index.size };
}
export type KnowledgeAnswerer = ReturnType<typeof createKnowledgeAnswerer>;
