import { z } from "zod";

/** The chat assistant's texts. */
export const CHAT_MESSAGES = {
  empty: "Message cannot be empty",
  tooLong: "Message cannot exceed 1000 characters",
  notText: "Message must be text",
  cleared: "Chat history cleared",
  clearFailed: "Failed to clear chat history",
  replyFailedToast: "Failed to get response from chatbot",
  replyFailed: "I'm sorry, I'm having trouble processing your request right now. Please try again later.",
  welcome: `Hi! I'm the LoanMint assistant. Ask me about loans, rates, KYC, wallets, the marketplace, the vault or fees — or about your own account: "What is the status of my loan?", "When is my next payment?", "Why was my KYC rejected?"`,
} as const;

export const CHAT_MAX_LENGTH = 1000;

/** The name the widget shows for the local assistant; a configured model's name is shown beside it when it answered. */
export const ASSISTANT_NAME = "LoanMint assistant";

export const CHAT_SOURCES = ["knowledge", "llm"] as const;
export type ChatSource = (typeof CHAT_SOURCES)[number];

/** POST /chatbot/message {message}: whitespace-only is empty, and the cap is counted after trimming. */
export const chatMessageRequestSchema = z.object({
  message: z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? CHAT_MESSAGES.empty : CHAT_MESSAGES.notText) })
    .trim()
    .min(1, CHAT_MESSAGES.empty)
    .max(CHAT_MAX_LENGTH, CHAT_MESSAGES.tooLong),
});
export type ChatMessageRequest = z.infer<typeof chatMessageRequestSchema>;

/** The reply of POST /chatbot/message: spec's message and timestamp, plus who answered. */
export const chatReplySchema = z.object({
  id: z.string(),
  message: z.string(),
  timestamp: z.string(),
  source: z.enum(CHAT_SOURCES),
  /** The configured model's name when source is "llm". */
  model: z.string().nullable(),
  /** Titles of the knowledge-base sections the answer drew on. */
  sources: z.array(z.string()),
});
export type ChatReply = z.infer<typeof chatReplySchema>;

/** One entry of GET /chatbot/history data.messages. */
export const chatHistoryMessageSchema = z.object({
  id: z.string(),
  content: z.string(),
  sender: z.enum(["user", "bot"]),
  timestamp: z.string(),
  source: z.enum(CHAT_SOURCES).nullable(),
  model: z.string().nullable(),
});
export type ChatHistoryMessage = z.infer<typeof chatHistoryMessageSchema>;

export const chatHistorySchema = z.object({ messages: z.array(chatHistoryMessageSchema) });
