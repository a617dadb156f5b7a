import { desc, eq } from "drizzle-orm";
import type { Db } from "#db/connect";
import { chatMessages, type ChatMessageRow } from "#db/schema";
import type { ChatSource } from "#domain/schemas/chatbot";

/** The most a history answer carries; older messages stay stored until cleared. */
export const HISTORY_LIMIT = 200;

export function createChatRepository(db: Db) {
  return {
    /** The question and its answer, stored together so a history never holds a question without its reply. */
    async addExchange(
      userId: string,
      question: { content: string; at: Date },
      reply: { content: string; source: ChatSource; model: string | null; at: Date },
    ): Promise<{ question: ChatMessageRow; reply: ChatMessageRow }> {
      return db.transaction(async (tx) => {
        const [q] = await tx.insert(chatMessages).values({ userId, sender: "user", content: question.content, createdAt: question.at }).returning();
        const [r] = await tx.insert(chatMessages).values({ userId, sender: "bot", content: reply.content, source: reply.source, model: reply.model, createdAt: reply.at }).returning();
        return { question: q, reply: r };
      });
    },

    /** The user's latest messages, oldest first. */
    async history(userId: string, limit = HISTORY_LIMIT): Promise<ChatMessageRow[]> {
      const rows = await db.select().from(chatMessages).where(eq(chatMessages.userId, userId)).orderBy(desc(chatMessages.seq)).limit(limit);
      return rows.reverse();
    },

    async clear(userId: string): Promise<number> {
      const rows = await db.delete(chatMessages).where(eq(chatMessages.userId, userId)).returning({ id: chatMessages.id });
      return rows.length;
    },
  };
}
export type ChatRepository = ReturnType<typeof createChatRepository>;
