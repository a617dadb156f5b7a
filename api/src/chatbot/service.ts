import type { Logger } from "pino";
import type { UserRow } from "#db/schema";
import type { ChatReply, ChatSource } from "#domain/schemas/chatbot";
import { detectIntent } from "./intents";
import type { KnowledgeAnswerer } from "./knowledgeAnswer";
import { completeWithLlm, type ChatTurn, type LlmConfig } from "./llm";
import { answerPersonal } from "./personalAnswers";
import type { ChatRepository } from "./repository";
import type { ChatUserData } from "./userData";

export const ACCOUNT_SOURCE = "Your account";

export interface ChatbotServiceDeps {
  repository: ChatRepository;
  userData: ChatUserData;
  knowledge: KnowledgeAnswerer;
  /** The optional hosted model; undefined = the local assistant answers alone. */
  llm?: LlmConfig;
  /** The treasury's address, when a deployment names it. */
  treasury?: () => Promise<string | null>;
  /** LoanNote's grace period in seconds, from the chain; null when there is no deployment to ask. */
  gracePeriod?: () => Promise<bigint | null>;
  now: () => Date;
  logger?: Pick<Logger, "warn">;
}

export interface LocalAnswer {
  text: string;
  sources: string[];
  /** The user's records the answer is made of, also the model's grounding. */
  userFacts: string | null;
  context: { title: string; text: string }[];
}

export function createChatbotService(deps: ChatbotServiceDeps) {
  /**
   * A short follow-up that leans on the previous question ("how long does it take?", "and the fee?") is
   * read together with it when it cannot be answered alone or points back with a pronoun.
   */
  async function withFollowUp(userId: string, question: string) {
    const alone = deps.knowledge.answer(question);
    const words = question.trim().split(/\s+/).length;
    const pointsBack = /\b(it|that|this|they|them|those|its)\b/i.test(question);
    // "and the fee?", "what about the vault?", "how long?": leaning on the last question without a pronoun.
    const leans = /^\s*(and|also|so|but|what\s+about|how\s+about)\b/i.test(question) || words <= 3;
    // A new question that neither points back nor leans (an off-topic one) stands alone: combined with the last
    // loan question it would only repeat the loan answer.
    if (words > 6 || (alone.found && !pointsBack) || !(pointsBack || leans)) return alone;
    const previous = (await deps.repository.history(userId, 4)).filter((m) => m.sender === "user").at(-1);
    if (!previous) return alone;
    const combined = deps.knowledge.answer(`${previous.content} ${question}`);
    return combined.found && (!alone.found || pointsBack) ? combined : alone;
  }

  /** The answer made on this machine: the user's records for questions about them, else the knowledge base. */
  async function localAnswer(user: UserRow, question: string): Promise<LocalAnswer> {
    const intent = detectIntent(question);
    const personal = intent ? await answerPersonal(intent, user, { data: deps.userData, now: deps.now, treasury: (await deps.treasury?.()) ?? null, gracePeriod: deps.gracePeriod }) : null;
    const knowledge = personal === null ? await withFollowUp(user.id, question) : deps.knowledge.answer(question);
    const context = knowledge.hits.map((hit) => ({ title: hit.chunk.title, text: (hit.chunk as { answer?: string }).answer ?? hit.chunk.text }));
    if (personal !== null) return { text: personal, sources: [ACCOUNT_SOURCE], userFacts: personal, context };
    return { text: knowledge.text, sources: knowledge.sources, userFacts: null, context };
  }

  async function recentTurns(userId: string): Promise<ChatTurn[]> {
    const rows = await deps.repository.history(userId, 6);
    return rows.map((row) => ({ role: row.sender === "user" ? "user" : "assistant", content: row.content }));
  }

  return {
    localAnswer,

    /** The user's stored questions and answers, oldest first. */
    history: (userId: string) => deps.repository.history(userId),

    /** Deletes the user's history; answers how many messages went. */
    clear: (userId: string) => deps.repository.clear(userId),

    async ask(user: UserRow, question: string): Promise<ChatReply> {
      const askedAt = deps.now();
      const local = await localAnswer(user, question);
      let text = local.text;
      let source: ChatSource = "knowledge";
      let model: string | null = null;
      if (deps.llm) {
        try {
          const answer = await completeWithLlm(deps.llm, {
            question,
            history: await recentTurns(user.id),
            context: local.context,
            userFacts: local.userFacts,
            userName: user.firstName,
          });
          text = answer.text;
          source = "llm";
          model = answer.model;
        } catch (error) {
          deps.logger?.warn({ err: error }, "chat model failed; the local assistant answered");
        }
      }
      const { reply } = await deps.repository.addExchange(user.id, { content: question, at: askedAt }, { content: text, source, model, at: deps.now() });
      return { id: reply.id, message: text, timestamp: reply.createdAt.toISOString(), source, model, sources: local.sources };
    },
  };
}
export type ChatbotService = ReturnType<typeof createChatbotService>;
