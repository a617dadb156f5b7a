import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Chunk } from "../retrieval/bm25";

export const KNOWLEDGE_DIR = dirname(fileURLToPath(import.meta.url));

export interface KnowledgeChunk extends Chunk {
  /** Other phrasings of the question, indexed with the title but never shown. */
  alsoAsked: string;
  /** The answer as shown. */
  answer: string;
}

/**
 * One chunk per "## " section of a knowledge file. A first line "Also asked: ..." lists other ways people
 * ask the section's question; it is indexed (so paraphrases find it) but not part of the answer.
 */
export function parseKnowledge(topic: string, markdown: string): KnowledgeChunk[] {
  const chunks: KnowledgeChunk[] = [];
  const sections = markdown.split(/^## /m).slice(1);
  sections.forEach((section, i) => {
    const [titleLine, ...rest] = section.split("\n");
    let lines = rest;
    let alsoAsked = "";
    const first = lines.findIndex((line) => line.trim() !== "");
    if (first >= 0 && /^also asked:/i.test(lines[first].trim())) {
      alsoAsked = lines[first].trim().replace(/^also asked:\s*/i, "");
      lines = lines.slice(first + 1);
    }
    const answer = lines.join("\n").trim();
    const title = titleLine.trim();
    if (!title || !answer) return;
    chunks.push({ id: `${topic}#${i + 1}`, topic, title, alsoAsked, keywords: alsoAsked, answer, text: answer });
  });
  return chunks;
}

let cached: KnowledgeChunk[] | undefined;

/** Every section of every knowledge file in this folder, read once. */
export function loadKnowledge(dir = KNOWLEDGE_DIR): KnowledgeChunk[] {
  if (dir === KNOWLEDGE_DIR && cached) return cached;
  const chunks = readdirSync(dir)
    .filter((name) => name.endsWith(".md"))
    .sort()
    .flatMap((name) => parseKnowledge(name.replace(/\.md$/, ""), readFileSync(join(dir, name), "utf8")));
  if (dir === KNOWLEDGE_DIR) cached = chunks;
  return chunks;
}
