import { canonical, SYNONYM_STEMS, terms as toTerms } from "./text";
import { closestKnown } from "./typos";

/**
 * Okapi BM25 over knowledge chunks, with the title counted as extra body weight (a small BM25F):
 * a question that names a section's subject should find that section before one that only mentions it.
 */

export interface Chunk {
  id: string;
  /** The knowledge file it came from ("kyc", "loans", ...). */
  topic: string;
  title: string;
  /** Other phrasings of the question: weighted between the title and the body. */
  keywords?: string;
  text: string;
}

export interface Hit {
  chunk: Chunk;
  score: number;
  /** Share of the question's term weight (idf) that this chunk contains, 0..1. */
  coverage: number;
  matched: string[];
  /** Matched terms that are in the chunk's title or keywords: the question is about what the chunk is about. */
  fieldMatched: string[];
}

export interface Bm25Options {
  k1?: number;
  b?: number;
  /** How many body occurrences one title occurrence is worth. */
  titleWeight?: number;
  keywordWeight?: number;
}

const UNKNOWN_TERM_WEIGHT = 0.35;

interface IndexedChunk {
  chunk: Chunk;
  tf: Map<string, number>;
  fieldTerms: Set<string>;
  length: number;
}

export class Bm25Index {
  private readonly docs: IndexedChunk[];
  private readonly df = new Map<string, number>();
  private readonly avgLength: number;
  private readonly k1: number;
  private readonly b: number;

  constructor(chunks: Chunk[], options: Bm25Options = {}) {
    this.k1 = options.k1 ?? 1.2;
    this.b = options.b ?? 0.75;
    const titleWeight = options.titleWeight ?? 3;
    const keywordWeight = options.keywordWeight ?? 2;
    this.docs = chunks.map((chunk) => {
      const tf = new Map<string, number>();
      const body = toTerms(chunk.text);
      const title = toTerms(chunk.title);
      const keywords = toTerms(chunk.keywords ?? "");
      for (const term of body) tf.set(term, (tf.get(term) ?? 0) + 1);
      for (const term of title) tf.set(term, (tf.get(term) ?? 0) + titleWeight);
      for (const term of keywords) tf.set(term, (tf.get(term) ?? 0) + keywordWeight);
      return { chunk, tf, fieldTerms: new Set([...title, ...keywords]), length: body.length + title.length * titleWeight + keywords.length * keywordWeight };
    });
    for (const doc of this.docs) for (const term of doc.tf.keys()) this.df.set(term, (this.df.get(term) ?? 0) + 1);
    this.avgLength = this.docs.reduce((sum, d) => sum + d.length, 0) / Math.max(1, this.docs.length);
  }

  /** A term the index never saw is read as the known term one typo away, if there is one ("intrest" -> rate). */
  private correct(term: string): string {
    if (this.df.has(term)) return term;
    const known = closestKnown(term, [...this.df.keys(), ...SYNONYM_STEMS]);
    return known === undefined ? term : canonical(known);
  }

  get size(): number {
    return this.docs.length;
  }

  idf(term: string): number {
    const n = this.docs.length;
    const df = this.df.get(term) ?? 0;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /** Chunks ranked by BM25 for the query, best first; chunks sharing no term are left out. */
  search(query: string, limit = 5): Hit[] {
    const queryTerms = [...new Set(toTerms(query).map((term) => this.correct(term)))];
    if (queryTerms.length === 0) return [];
    // A word the knowledge base never uses still counts against coverage, but less: it may be noise ("whats").
    const weightOf = (t: string) => (this.df.has(t) ? this.idf(t) : this.idf(t) * UNKNOWN_TERM_WEIGHT);
    const totalIdf = queryTerms.reduce((sum, t) => sum + weightOf(t), 0);
    const hits: Hit[] = [];
    for (const doc of this.docs) {
      let score = 0;
      let matchedIdf = 0;
      const matched: string[] = [];
      for (const term of queryTerms) {
        const tf = doc.tf.get(term);
        if (!tf) continue;
        const idf = this.idf(term);
        const norm = this.k1 * (1 - this.b + (this.b * doc.length) / this.avgLength);
        score += (idf * tf * (this.k1 + 1)) / (tf + norm);
        matchedIdf += idf;
        matched.push(term);
      }
      if (score > 0) {
        const fieldMatched = matched.filter((term) => doc.fieldTerms.has(term));
        hits.push({ chunk: doc.chunk, score, coverage: totalIdf > 0 ? matchedIdf / totalIdf : 0, matched, fieldMatched });
      }
    }
    hits.sort((x, y) => y.score - x.score || x.chunk.id.localeCompare(y.chunk.id));
    return hits.slice(0, limit);
  }
}
